import { AsyncLocalStorage } from 'node:async_hooks';

// A request's time. Lambda ends an invocation at the function's timeout, and API Gateway then
// answers its own 500, which tells the partner neither what happened nor when to retry. The
// SDK's own retries let one table call last about 7 s on a throttling table (4 attempts, a
// throttle's backoff up to 1 s, 2 s, 4 s), and a route makes several: so every table call of
// a request is bounded by the time the request has left. A call that cannot end in it is not
// sent, and one under way (an attempt, or the SDK's pause before the next) is given up when
// the time runs out, as `OutOfTimeError`, which the error mapper answers as it answers a
// dependency that is away: `503 service_unavailable` with `Retry-After`
// (docs/api.md#retrying). The HTTP stack keeps the last `ANSWER_MARGIN_MS` of the invocation
// for the Idempotency-Key's record and the answer (functions/shared/http/handler.ts).

/**
 * The answer is due this long before the invocation's time runs out: the request's work
 * (its middlewares' calls and the handler's) ends by then, and middy answers `503` then if
 * the handler has not (`timeoutEarlyInMillis`).
 */
export const ANSWER_MARGIN_MS = 1_000;
/** The last table calls (the Idempotency-Key's record, once the answer is decided) end this long before: time to send it. */
export const LAST_CALL_MARGIN_MS = 200;

/** When the running request's table calls must have ended (epoch ms). */
const budgets = new AsyncLocalStorage<number>();

/**
 * Runs `work` with its table calls bounded to end `marginMs` before the invocation's time
 * runs out (the Lambda context's `getRemainingTimeInMillis`); inside, a nested run with
 * another margin holds for its part. Without a context (a test calling a handler bare)
 * nothing is bounded.
 */
export function withinTime<T>(
  context: { getRemainingTimeInMillis?: () => number } | undefined,
  marginMs: number,
  work: () => T,
): T {
  const remaining = context?.getRemainingTimeInMillis?.();
  return remaining === undefined ? work() : budgets.run(Date.now() + remaining - marginMs, work);
}

/** A table call not sent, or given up, because the request's time ran out: answered `503`, as a dependency that is away. */
export class OutOfTimeError extends Error {
  // The name the SDK gives a call that timed out, which `isDependencyUnavailable` reads.
  override readonly name = 'TimeoutError';
}

/**
 * Sends one call within the running request's time (`withinTime`): refused when none is
 * left, else sent with an `AbortSignal` (with any the caller gave) that the SDK honours
 * through its retries and each attempt, fired when the time runs out. Outside a request,
 * sent as it is.
 */
export async function sendWithinTime<T>(
  call: string,
  options: { abortSignal?: AbortSignal } | undefined,
  send: (options: { abortSignal?: AbortSignal } | undefined) => Promise<T>,
): Promise<T> {
  const endsAt = budgets.getStore();
  if (endsAt === undefined) return send(options);
  const left = endsAt - Date.now();
  if (left <= 0) throw new OutOfTimeError(`${call} not sent: the request's time ran out`);
  const timeUp = new AbortController();
  const timer = setTimeout(() => timeUp.abort(), left);
  const given = options?.abortSignal;
  try {
    return await send({ ...options, abortSignal: given ? AbortSignal.any([given, timeUp.signal]) : timeUp.signal });
  } catch (error) {
    if (timeUp.signal.aborted)
      throw new OutOfTimeError(`${call} given up: the request's time ran out`, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
