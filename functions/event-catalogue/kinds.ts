// The event catalogue: every event kind, the record each carries and the scope it is read
// with, joined here from the areas that emit them, as functions/pipeline/stream-rules.ts
// joins the stream rules. An emitting area declares its kinds and builds their envelopes
// in its event-kinds.ts (persons/, verify-accounts/) and its record's shape in its
// openapi-responses.ts; this folder is the one place that imports them (payloads.ts the shapes,
// kept apart so that handlers reading kinds bundle no response schemas).
//
// Which folder of functions/ may import which: docs/architecture.md#how-the-code-is-layered
// (held by test/unit/architecture/imports.test.ts): event-log/ and webhooks/ never reach into
// the areas that emit events, and no two folders import each other.

import { PERSON_EVENT_TYPES } from '#functions/persons/event-kinds';
import { VERIFY_ACCOUNT_EVENT_TYPES } from '#functions/verify-accounts/event-kinds';
import type { Scope } from '#shared/scopes';

/** Every event kind partners can subscribe to, joined from the areas that emit them. */
export const EVENT_TYPES = [...PERSON_EVENT_TYPES, ...VERIFY_ACCOUNT_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The kinds of Orum's trigger schema that the service never emits (docs/api.md#test-event):
 * `POST /webhooks/invoke` sends a test event of one all the same, a valid delivery for a
 * receiver written against Orum. `person_unverified` is Orum's step back to `created`,
 * which this service announces by the new identification's outcome instead.
 */
export const TEST_ONLY_EVENT_TYPES = [
  'person_unverified',
  'business_created',
  'business_verified',
  'business_rejected',
  'business_restricted',
  'business_unverified',
  'business_closed',
  'external_account_created',
  'external_account_verified',
  'external_account_rejected',
  'external_account_restricted',
  'external_account_unverified',
  'external_account_closed',
  'transfer_updated',
  'subledger_created',
  'book_transfer_updated',
] as const;

/** Every kind of Orum's trigger schema, so every kind an event in the log may have. */
export const ORUM_EVENT_TYPES = [...EVENT_TYPES, ...TEST_ONLY_EVENT_TYPES] as const;
export type OrumEventType = (typeof ORUM_EVENT_TYPES)[number];

/** The records events carry, each as `event_data.<record>` (a verify account's is `account`). */
const EVENT_RECORDS = [
  'person',
  'account',
  'business',
  'external_account',
  'transfer',
  'subledger',
  'book_transfer',
] as const;
export type EventRecord = (typeof EVENT_RECORDS)[number];

/** The record an event of `type` carries: the kind's name before its verb. */
export function eventRecord(type: OrumEventType): EventRecord {
  if (type === 'verify_account_updated') return 'account';
  const record = EVENT_RECORDS.find((name) => type.startsWith(`${name}_`));
  if (!record) throw new RangeError(`event type ${type} names no record`);
  return record;
}

const readWith = <T extends string>(types: readonly T[], scope: Scope) =>
  Object.fromEntries(types.map((type) => [type, scope])) as Record<T, Scope>;

const OTHER_TEST_ONLY_TYPES = TEST_ONLY_EVENT_TYPES.filter((type) => eventRecord(type) !== 'person');

/**
 * The scope an event of each kind is read with (docs/api.md#event-log): an event carries its
 * area's record as that area's GET route answers it (names, dates of birth, addresses,
 * account numbers), so reading it takes that route's scope. A person kind is a person's,
 * test or not. The other test-only kinds (businesses, external accounts, transfers, …) carry
 * no record of the service, only a generated sample or what an `invoke:webhook` client sent:
 * they are read with the scope that wrote them. Typed over every kind, so a new kind cannot
 * compile without naming its scope.
 */
export const EVENT_READ_SCOPE: Readonly<Record<OrumEventType, Scope>> = {
  ...readWith([...PERSON_EVENT_TYPES, 'person_unverified'] as const, 'read:persons'),
  ...readWith(VERIFY_ACCOUNT_EVENT_TYPES, 'read:verify-accounts'),
  ...readWith(OTHER_TEST_ONLY_TYPES, 'invoke:webhook'),
};

/** The scopes that read some part of the event log: its routes accept a token with any of them. */
export const EVENT_LOG_SCOPES: readonly Scope[] = [...new Set(Object.values(EVENT_READ_SCOPE))];

/** The kinds a token holding `scopes` may read. */
export const readableEventTypes = (scopes: readonly string[]): OrumEventType[] =>
  ORUM_EVENT_TYPES.filter((type) => scopes.includes(EVENT_READ_SCOPE[type]));
