import { queueWorker } from '#shared/batch';
import { screeningRuns } from '#shared/db/screening/index';
import { now } from '#shared/dependencies';
import { messageQueue } from '#shared/queue/index';
import { PAGES_PER_MESSAGE, rescreenShard, sanctionsFor } from '../rescreen';
import { type ScreeningMessage, screeningMessage } from '../screening-message';

/**
 * Re-screens one shard of the verified persons from the screening queue (SQS, partial
 * batch failures): a bounded walk per message, the rest of the shard handed on as the
 * same message starting after the last person walked; each message adds what it did to
 * its run's record.
 */
export const handler = queueWorker({ worker: 'screening-worker', body: screeningMessage }, async (message, logger) => {
  const lists = await sanctionsFor(message);
  if (!lists) return;
  const outcome = await rescreenShard(lists, { ...message, pages: PAGES_PER_MESSAGE }, logger);
  const runId = message.kind === 'change' ? message.change_id : message.run_id;
  await screeningRuns().record(
    { runId, kind: message.kind, shard: message.shard, listsVersion: lists.version, ...outcome, done: !outcome.next },
    now(),
  );
  logger.info('screening shard walked', { kind: message.kind, shard: message.shard, ...outcome, next: undefined });
  if (outcome.next) {
    const body: ScreeningMessage = { ...message, after: outcome.next };
    await messageQueue().send('screening', [{ id: `shard-${message.shard}`, body }]);
  }
});
