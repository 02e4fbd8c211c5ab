import { type IdempotencyScope, idempotencyRecords, type StoredResponse } from '#shared/db/idempotency/index';
import type { KeptAnswer } from '#shared/db/idempotency/kept-answer';
import { errorResult, jsonResult } from './respond';
import type { Answers, HeldKey, HttpResult } from './types';

/**
 * What a request holding the key of `scope` gives its handler to keep its answer with its
 * work (`HandlerRequest.answers`, #shared/db/idempotency/kept-answer): each record holds the
 * answer exactly as the stack will send it, and once the work's transaction is written the
 * stack writes the record no more (`held.kept`).
 */
export function keptAnswers(scope: IdempotencyScope, held: HeldKey, requestId: string): Answers {
  const keep = (response: HttpResult): KeptAnswer => ({
    record: idempotencyRecords().completion(scope, held.claimedAt, stored(response)),
    written: () => {
      held.kept = response;
    },
  });
  return {
    of: (answer) => (result) => {
      const reply = answer(result);
      return keep(jsonResult(reply.statusCode ?? 200, reply.body, requestId, reply.headers));
    },
    error: (error) => keep(errorResult(error, requestId)),
  };
}

/** A response as its key's record keeps it. */
export const stored = (r: HttpResult): StoredResponse => ({
  statusCode: r.statusCode,
  headers: r.headers,
  body: r.body,
});
