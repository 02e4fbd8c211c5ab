import { subscribes } from '#domain/webhook-delivery';
import { ForbiddenError } from '#shared/errors';
import type { Scope } from '#shared/scopes';
import { EVENT_LOG_SCOPES, EVENT_READ_SCOPE, ORUM_EVENT_TYPES } from './kinds';

// What reading a selection of event kinds takes: a filter of the event log, a webhook
// configuration's `event_types` (kinds, `person_all`, `subscribe_all`), the kind of one
// event to read or redeliver. One rule, from EVENT_READ_SCOPE, and one refusal for all of
// them (docs/api.md#event-log, docs/api.md#webhook-configurations).

/** The scopes that read the kinds `selectors` stand for: `subscribe_all` stands for every kind, so it takes every one. */
export function scopesToRead(selectors: readonly string[]): Scope[] {
  const kinds = ORUM_EVENT_TYPES.filter((type) => subscribes(selectors, type));
  return [...new Set(kinds.map((type) => EVENT_READ_SCOPE[type]))];
}

/**
 * The selectors, each once and in the order given, that stand for some kind `scopes` do not
 * read, or for no kind of the catalogue at all (nothing reads those: closed, not open).
 */
export function unreadableSelectors(selectors: readonly string[], scopes: readonly string[]): string[] {
  return [...new Set(selectors)].filter((selector) => {
    const needed = scopesToRead([selector]);
    return needed.length === 0 || needed.some((scope) => !scopes.includes(scope));
  });
}

/**
 * 403, not 404 nor an empty page, for kinds the token cannot read: the events are the
 * tenant's own, and naming the scopes it lacks (`required_scopes`) tells the partner what
 * to ask for, revealing only a kind to a client of the same tenant. `asked` are the
 * selectors refused (`details.event_types`); none asked means the event log as a whole.
 */
export function insufficientScope(asked: readonly string[], held: readonly string[]): ForbiddenError {
  if (asked.length === 0) {
    return new ForbiddenError('insufficient_scope', `the event log is read with ${EVENT_LOG_SCOPES.join(' or ')}`, {
      required_scopes: [...EVENT_LOG_SCOPES],
    });
  }
  const missing = scopesToRead(asked).filter((scope) => !held.includes(scope));
  const readWith =
    missing.length > 0 ? `read with ${missing.join(' and ')}, which the token does not hold` : 'read by no scope';
  return new ForbiddenError('insufficient_scope', `events of ${asked.join(', ')} are ${readWith}`, {
    event_types: [...asked],
    required_scopes: missing,
  });
}
