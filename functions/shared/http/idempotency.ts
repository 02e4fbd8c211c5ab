import { idempotencyRecords } from '#shared/db/idempotency/index';
import { KeyNoLongerHeld } from '#shared/db/idempotency/kept-answer';
import { now } from '#shared/dependencies';
import { digest } from '#shared/digest/index';
import { ConflictError, retryAfter, UnprocessableError, ValidationError } from '#shared/errors';
import { metrics } from '#shared/metrics';
import { LAST_CALL_MARGIN_MS, withinTime } from '#shared/time-budget';
import { untilWritten } from '#shared/until-written';
import { keptAnswers, stored } from './kept-answers';
import { errorResult } from './respond';
import { IDEMPOTENT_METHODS } from './table-access';
import type { HttpMiddleware, HttpResult } from './types';

/** The longest `Idempotency-Key` taken (the OpenAPI document states it). */
export const MAX_KEY_LENGTH = 255;

/**
 * `Idempotency-Key` (docs/api.md#idempotency) on the methods of IDEMPOTENT_METHODS: the
 * first response to a key is kept for 24 h and replayed for the same body; another body
 * answers 422, a request still running 409. Responses below 500 are kept (a replayed
 * wrong statement code must not use up another attempt); after a 5xx, or an answer with
 * `Retry-After` (a paced 429), the key is released so the caller can retry, and so it is after a `Cache-Control: no-store` response, which
 * is never stored. A handler whose work is one write keeps its answer in that write's
 * transaction (`HandlerRequest.answers`, ./kept-answers.ts), and nothing is written after
 * it. The claimed key travels in `request.internal`.
 */
export const idempotency = (): HttpMiddleware => ({
  before: async ({ event, internal }) => {
    if (!IDEMPOTENT_METHODS.includes(event.requestContext?.http?.method)) return;
    const key = event.headers?.['idempotency-key'];
    if (key === undefined) return;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new ValidationError('invalid_idempotency_key', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
    }
    const scope = { tenant: internal.tenant ?? '', route: internal.route, key };
    const fingerprint = fingerprintOf(event.rawPath, internal.body);
    const claimedAt = now();
    const claim = await idempotencyRecords().claim(scope, fingerprint, claimedAt);
    if (claim.state !== 'claimed' && claim.fingerprint !== fingerprint) {
      throw new UnprocessableError('idempotency_key_reused', 'this Idempotency-Key was used with another request');
    }
    if (claim.state === 'in_progress') {
      // The first request may answer any moment, or have died: its lock lapses at the latest.
      const seconds = Math.max(1, Math.ceil((claim.lockedUntil.getTime() - now().getTime()) / 1000));
      throw new ConflictError(
        'idempotency_key_in_use',
        `a request with this Idempotency-Key is still in progress; retry after ${seconds} s`,
        ...retryAfter(seconds),
      );
    }
    if (claim.state === 'completed') {
      metrics().count('IdempotentReplay');
      const { statusCode, headers, body } = claim.response;
      return { statusCode, headers: { ...headers, 'idempotent-replayed': 'true' }, body };
    }
    internal.idempotency = scope;
    internal.held = { claimedAt };
    internal.answers = keptAnswers(scope, internal.held, internal.requestId);
    internal.requestIdentity = { id: digest('created-id', `${scope.tenant}\n${scope.route}\n${key}`), fingerprint };
  },
  // The record is written once the answer is decided, in the time kept for it (#shared/time-budget).
  after: ({ internal, response, context }) =>
    withinTime(context, LAST_CALL_MARGIN_MS, async () => {
      const scope = internal.idempotency;
      // Kept with the work (HandlerRequest.answers): the record holds the answer already.
      const held = internal.held;
      if (!scope || !held || !response || held.kept) return;
      // A `no-store` response carries a secret (a webhook signing secret): keeping it for
      // replay would store the secret in plain text, so the key is freed instead.
      if (isNoStore(response) || isComeBackLater(response)) await idempotencyRecords().release(scope, held.claimedAt);
      // The work is done: a 503 now would have the caller's retry do it again (untilWritten).
      else
        await untilWritten(
          () => idempotencyRecords().complete(scope, held.claimedAt, stored(response)),
          remainingOf(context),
        );
    }),
  onError: async ({ internal, error, context }) => {
    const scope = internal.idempotency;
    const held = internal.held;
    // The answer kept with the work is the request's; a key taken over is another request's to record.
    if (!scope || !held || held.kept || error instanceof KeyNoLongerHeld) return;
    const response = errorResult(error, internal.requestId);
    try {
      await withinTime(context, LAST_CALL_MARGIN_MS, () =>
        isComeBackLater(response)
          ? idempotencyRecords().release(scope, held.claimedAt)
          : idempotencyRecords().complete(scope, held.claimedAt, stored(response)),
      );
    } catch (cause) {
      // The caller still gets the contract's answer; an unreleased key frees itself when its lock lapses.
      internal.logger.error('idempotency record not updated', { error: cause });
    }
  },
});

/** The invocation's time left; Lambda always passes a context, a test may not (a route's 10 s then). */
const remainingOf = (context: { getRemainingTimeInMillis?: () => number } | undefined) => () =>
  context?.getRemainingTimeInMillis ? context.getRemainingTimeInMillis() : 10_000;

const isNoStore = (r: HttpResult) => /\bno-store\b/i.test(r.headers?.['cache-control'] ?? '');

/**
 * An answer that tells the caller to send the same request again (docs/api.md#retrying): a
 * 5xx, or one with `Retry-After` (a paced 429). Kept, its replay would refuse the very retry
 * it asked for, so the key is released instead.
 */
const isComeBackLater = (r: HttpResult) => r.statusCode >= 500 || r.headers?.['retry-after'] !== undefined;

/**
 * The request's identity: path and body, with keys sorted so key order does not matter.
 * Keyed: the body may hold an SSN or a tax id, and the record is stored for 24 h.
 */
const fingerprintOf = (path: string, body: unknown): string => digest('request', `${path}\n${canonical(body)}`);

/** JSON with object keys sorted, so two bodies that differ only in key order are one request. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
