import { keyDigest } from './digest';

// Keys of the records every area shares: idempotency records, rate buckets, tenant aliases
// and settings; and the kinds every partition key belongs to (KEY_PREFIX). Each entity's
// own keys live beside its repository (`./verify-accounts/keys.ts`, …); the access patterns
// they serve are listed in docs/data-model.md.

export { ENTITY } from './entities';

/**
 * The kinds of record the table holds, by the fixed prefix every partition key of the kind
 * starts with; no prefix starts another's (`T#` is not `TENANT#`). An IAM
 * `dynamodb:LeadingKeys` pattern `<prefix>*` (`keyPattern`) reaches the records of one kind
 * and no other, so each row of lib/service names the kinds its table actions reach
 * (`TableAccess.leadingKeys`) and the stack confines its grant to them
 * (docs/data-model.md#who-writes-which-keys). A new kind of record takes a new prefix here.
 * Index partition keys (`PSCREEN#…`, `STATEMENT_CODE_SENT#…`) are not among them: an index
 * Query is granted on the index, not by key.
 *
 * A tenant's record puts the tenant right after the prefix, then `#` or nothing
 * (`T#<tenant>#…`, `IDEM#<tenant>#…`, `RATE#<tenant>`), so a grant can one day be confined
 * to one tenant's keys (`T#${aws:PrincipalTag/tenant}#*`; exactly `RATE#${…}` for a record
 * that is one per tenant) without a stored key changing (test/unit/shared/db/keys.test.ts).
 */
export const KEY_PREFIX = {
  /** Every record a tenant owns: `T#<tenant>#…` (./verify-accounts/keys.ts, ./persons/keys.ts, …). */
  tenantData: 'T#',
  /** The HTTP stack's idempotency records: `IDEM#<tenant>#<route>#<digest>`. */
  idempotency: 'IDEM#',
  /** The tenants' token buckets: `RATE#<tenant>`. */
  rateBucket: 'RATE#',
  /** Client id → tenant: `CLIENT#<client id>`, written by the stack alone (lib/constructs/tenant-records.ts). */
  tenantAlias: 'CLIENT#',
  /** A tenant's settings: `TENANT#<tenant>`, written by the stack alone. */
  tenantSettings: 'TENANT#',
  /** Where served list pages ended: cursors and bookmarks, `PAGE#<tenant>#…` (./list-positions/). */
  listPosition: 'PAGE#',
  /** The sanctions and alert lists' entries, `SCREEN#<list>#<name>`: no tenant's (./screening/keys.ts). */
  screeningEntry: 'SCREEN#',
  /** What each re-screen of every tenant's persons did, `SCREENRUN#<run>`: no tenant's (./screening/keys.ts). */
  screeningRun: 'SCREENRUN#',
  /** A tenant's redelivery pace, `REDELIVER#<tenant>` (./events/keys.ts). */
  redeliveryPace: 'REDELIVER#',
} as const;

/** A kind of record, named by its key prefix (`KEY_PREFIX`). */
export type KeyKind = keyof typeof KEY_PREFIX;

/** The IAM `StringLike` pattern of every partition key of one kind: its prefix, then anything. */
export const keyPattern = (kind: KeyKind): string => `${KEY_PREFIX[kind]}*`;

/**
 * What every key of one tenant's data starts with (`T#<tenant>#`): items and the index
 * partitions of its lists. A tenant is a partner name, which holds no `#`.
 */
export const tenantDataPrefix = (tenant: string): string => `${KEY_PREFIX.tenantData}${tenant}#`;

export const keys = {
  /** The `Idempotency-Key` only as a keyed digest: a partner may have used an account number or an SSN as the key. */
  idempotency: (tenant: string, scope: string, key: string) => ({
    pk: `${KEY_PREFIX.idempotency}${tenant}#${scope}#${keyDigest('idempotency-key', key)}`,
    sk: 'IDEM',
  }),
  tenantAlias: (clientId: string) => ({ pk: `${KEY_PREFIX.tenantAlias}${clientId}`, sk: 'ALIAS' }),
  tenantSettings: (tenant: string) => ({ pk: `${KEY_PREFIX.tenantSettings}${tenant}`, sk: 'SETTINGS' }),
  rateBucket: (tenant: string) => ({ pk: `${KEY_PREFIX.rateBucket}${tenant}`, sk: 'BUCKET' }),
};
