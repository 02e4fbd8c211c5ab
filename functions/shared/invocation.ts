import type { Context } from 'aws-lambda';
import { prepareDigestKey } from './digest/index';
import { prepareFieldKey } from './field-cipher/index';
import { withLogContext } from './logger';
import { flushMetrics } from './metrics';

/**
 * Every Lambda entry point (the HTTP stack, the queue workers, the stream router, the
 * schedules) is wrapped here: the invocation's Lambda context goes on its log lines
 * (request id, cold start), the data keys the function holds (digest key, field key) are
 * loaded before the work (once per container: key builders then digest, and repositories
 * seal and open fields, synchronously), and the metrics it counted are written when it
 * ends, whether it returns or throws. Lambda always passes a context; a test calling a
 * worker directly may not, and its lines then carry no invocation of their own.
 *
 * The HTTP stack loads the keys itself (`loadsDataKeys: false` here, `dataKeys()` in its
 * middleware), behind its error mapper, so a key that cannot be loaded answers the
 * contract's 500 rather than API Gateway's bare one.
 *
 * A schedule or the stream router is built on it directly; HTTP routes and queue workers
 * through `httpHandler` and `queueWorker`.
 *
 * @example
 * // functions/screening/handlers/daily-rescreen.ts: a schedule
 * export const handler = invocation<void, { shards: number }>(async () => {
 *   const runId = `daily#${now().toISOString()}`;
 *   const messages = Array.from({ length: SCREENING_SHARDS }, (_, shard) => {
 *     const body: ScreeningMessage = { kind: 'daily', run_id: runId, shard };
 *     return { id: `shard-${shard}`, body };
 *   });
 *   await messageQueue().send('screening', messages);
 *   return { shards: messages.length };
 * });
 */
export function invocation<E, R>(
  fn: (event: E, context?: Context) => Promise<R>,
  options: { loadsDataKeys?: boolean } = {},
): (event: E, context?: Context) => Promise<R> {
  const loadsDataKeys = options.loadsDataKeys ?? true;
  return (event, context) =>
    withLogContext(context, async () => {
      try {
        if (loadsDataKeys) await prepareDataKeys();
        return await fn(event, context);
      } finally {
        flushMetrics();
      }
    });
}

/** Loads every data key the function holds (each once per container; see `prepareDataKey`). */
export async function prepareDataKeys(): Promise<void> {
  await Promise.all([prepareDigestKey(), prepareFieldKey()]);
}
