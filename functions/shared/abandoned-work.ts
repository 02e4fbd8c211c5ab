import { AsyncLocalStorage } from 'node:async_hooks';

// Work an invocation does after its time is up. A request: middy answers 503 just before
// Lambda's timeout (`timeoutEarlyInMillis`, #shared/time-budget) while the handler's promise still runs. Nothing
// stops that promise: in Lambda it runs on when the sandbox thaws for a later request,
// locally at once. The 503 frees the request's Idempotency-Key so the partner's retry does
// the work; the abandoned run must then start no table call and no queue send, or both runs
// write (a busy machine's 20 racing PATCHes stored 24 versions of a person for 17 accepted
// writes). A write already in flight at the answer may still land: that is a lost answer,
// which each write's condition and the created id from the key (#shared/created-id) deal
// with. Any invocation, a queue worker's or the stream router's too: Lambda stops one whose
// time is up (its environment is frozen and reset), and the local invoker, which cannot stop
// a promise, refuses the rest of its work the same way (lib/local/lambda-invoker.ts), or a
// message or stream batch retried after the timeout would be worked on twice at once.

const abandoned = new AsyncLocalStorage<AbortSignal>();

/** Why the work is refused when the signal gives no reason of its own: middy's early answer. */
const ANSWERED = 'the request was answered already (its time ran out)';

/**
 * Runs an invocation's work under a signal aborted once it is answered for, or once its
 * time is up; inside another such run, either signal refuses the work.
 */
export function untilAnswered<T>(signal: AbortSignal | undefined, work: () => T): T {
  if (!signal) return work();
  const outer = abandoned.getStore();
  return abandoned.run(outer ? AbortSignal.any([outer, signal]) : signal, work);
}

/** What an abandoned run meets at its next table call or queue send; its answer went out already. */
export class AbandonedWorkError extends Error {
  override readonly name = 'AbandonedWorkError';
}

/** Throws when the running invocation was answered for or ran out of time: called before every table call and queue send. */
export function refuseAbandonedWork(call: string): void {
  const signal = abandoned.getStore();
  if (signal?.aborted) {
    throw new AbandonedWorkError(`${call} not sent: ${typeof signal.reason === 'string' ? signal.reason : ANSWERED}`);
  }
}
