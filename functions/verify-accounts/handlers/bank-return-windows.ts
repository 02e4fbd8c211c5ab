import { now } from '#shared/dependencies';
import { invocation } from '#shared/invocation';
import { createLogger } from '#shared/logger';
import { settleEndedWindows } from '../bank-outcome';

/**
 * Hourly: checks sent over real rails whose return window ended with no return settle
 * their accounts (docs/api.md#real-rails): valid, and debits valid unless their own
 * prenotification was returned. Nothing is due with the sandbox bank, which answers at once.
 */
export const handler = invocation<void, { settled: number }>(async () => {
  const logger = createLogger({ worker: 'bank-return-windows' });
  const settled = await settleEndedWindows(now(), logger);
  logger.info('bank return windows ended', { settled });
  return { settled };
});
