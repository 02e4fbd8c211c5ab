import { statementCodeExpired } from '#domain/statement-code';
import { STATEMENT_CODE_LIFETIME_MS } from '#domain/verify-account';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import { ConflictError } from '#shared/errors';
import { invocation } from '#shared/invocation';
import { createLogger } from '#shared/logger';
import { actingFor } from '#shared/tenant-scope';

/**
 * Daily: statement codes sent 5 days ago or more and still unanswered expire, and control
 * becomes `canceled` (which the stream turns into a `verify_account_updated` event). A
 * code answered meanwhile is left alone; a conflicting write is picked up by the next run.
 */
export const handler = invocation<void, { canceled: number; skipped: number }>(async () => {
  const logger = createLogger({ worker: 'statement-code-expiry' });
  const repository = verifyAccounts();
  const at = now();
  const due = await repository.pendingStatementCodesSentBefore(new Date(at.getTime() - STATEMENT_CODE_LIFETIME_MS + 1));
  let canceled = 0;
  let skipped = 0;
  // The due codes span tenants (one index); each account is handled acting for its own.
  for (const { tenant, id } of due) {
    const outcome = await actingFor(tenant, async () => {
      const account = await repository.get(tenant, id);
      const expired =
        account?.control_status === 'pending' &&
        account.statement_code_sent_at !== undefined &&
        statementCodeExpired(account.statement_code_sent_at, at);
      if (!account || !expired) return 'skipped';
      try {
        await repository.updateControl(account, { control_status: 'canceled' }, at);
        return 'canceled';
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        return 'skipped';
      }
    });
    if (outcome === 'canceled') canceled++;
    else skipped++;
  }
  logger.info('expired statement codes canceled', { canceled, skipped });
  return { canceled, skipped };
});
