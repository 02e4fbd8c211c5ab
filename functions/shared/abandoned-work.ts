import { AsyncLocalStorage } from 'node:async_hooks';

// A request's work after its answer: middy answers 503 a moment before Lambda's timeout
// (`timeoutEarlyInMillis`, #shared/time-budget) while the handler's promise still runs. Nothing stops that
// promise: in Lambda it runs on when the sandbox thaws for a later request, locally at once.
// The 503 frees the request's Idempotency-Key so the partner's retry does the work; the
// abandoned run must then start no table call and no queue send, or both runs write (a busy
// machine's 20 racing PATCHes stored 24 versions of a person for 17 accepted writes). A
// write already in flight at the answer may still land: that is a lost answer, which each
// write's condition and the created id from the key (#shared/created-id) deal with.

const answered = new AsyncLocalStorage<AbortSignal>();

/** Runs a request's handler under the signal middy aborts when it answers in the handler's place. */
export function untilAnswered<T>(signal: AbortSignal | undefined, work: () => T): T {
  return signal ? answered.run(signal, work) : work();
}

/** What an abandoned run meets at its next table call or queue send; its answer went out already. */
export class AbandonedWorkError extends Error {
  override readonly name = 'AbandonedWorkError';
}

/** Throws when the running request was already answered for: called before every table call and queue send. */
export function refuseAbandonedWork(call: string): void {
  if (answered.getStore()?.aborted) {
    throw new AbandonedWorkError(`${call} not sent: the request was answered already (its time ran out)`);
  }
}
