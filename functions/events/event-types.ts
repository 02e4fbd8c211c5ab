import type { Scope } from '#shared/scopes';
import { PERSON_EVENT_TYPES } from '../persons/events';
import { VERIFY_ACCOUNT_EVENT_TYPES } from '../verify-accounts/events';

/** Every event kind partners can subscribe to, joined from the areas that emit them. */
export const EVENT_TYPES = [...PERSON_EVENT_TYPES, ...VERIFY_ACCOUNT_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const readWith = <T extends string>(types: readonly T[], scope: Scope) =>
  Object.fromEntries(types.map((type) => [type, scope])) as Record<T, Scope>;

/**
 * The scope an event of each kind is read with (docs/api.md#event-log): an event carries its
 * area's record as that area's GET route answers it (names, dates of birth, addresses,
 * account numbers), so reading it takes that route's scope. Typed over every kind, so a new
 * kind cannot compile without naming its area's read scope.
 */
export const EVENT_READ_SCOPE: Readonly<Record<EventType, Scope>> = {
  ...readWith(PERSON_EVENT_TYPES, 'read:persons'),
  ...readWith(VERIFY_ACCOUNT_EVENT_TYPES, 'read:verify-accounts'),
};

/** The scopes that read some part of the event log: its routes accept a token with any of them. */
export const EVENT_LOG_SCOPES: readonly Scope[] = [...new Set(Object.values(EVENT_READ_SCOPE))];

/** The kinds a token holding `scopes` may read. */
export const readableEventTypes = (scopes: readonly string[]): EventType[] =>
  EVENT_TYPES.filter((type) => scopes.includes(EVENT_READ_SCOPE[type]));
