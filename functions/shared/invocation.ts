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
 */
export function invocation<E, R>(
  fn: (event: E, context?: Context) => Promise<R>,
): (event: E, context?: Context) => Promise<R> {
  return (event, context) =>
    withLogContext(context, async () => {
      try {
        await Promise.all([prepareDigestKey(), prepareFieldKey()]);
        return await fn(event, context);
      } finally {
        flushMetrics();
      }
    });
}
