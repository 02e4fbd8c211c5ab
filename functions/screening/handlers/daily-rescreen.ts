import { SCREENING_SHARDS } from '#shared/db/persons/item';
import { now } from '#shared/dependencies';
import { invocation } from '#shared/invocation';
import { createLogger } from '#shared/logger';
import { messageQueue } from '#shared/queue/index';
import type { ScreeningMessage } from '../screening-message';

/**
 * Daily: every verified person is screened again against the whole sanctions list, by the
 * matcher identification uses: one screening message per shard of the persons, each
 * walked by the screening worker page by page (docs/data-model.md, pattern 13).
 */
export const handler = invocation<void, { shards: number }>(async () => {
  const runId = `daily#${now().toISOString()}`;
  const messages = Array.from({ length: SCREENING_SHARDS }, (_, shard) => {
    const body: ScreeningMessage = { kind: 'daily', run_id: runId, shard };
    return { id: `shard-${shard}`, body };
  });
  await messageQueue().send('screening', messages);
  createLogger({ worker: 'daily-rescreen' }).info('persons queued for the daily re-screen', {
    shards: messages.length,
  });
  return { shards: messages.length };
});
