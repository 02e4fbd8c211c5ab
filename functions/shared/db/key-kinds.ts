// The kinds of record the table holds, by the prefix of their partition keys, and whose
// each kind is. Imports nothing, so that the document client (./tenant-access/) can choose
// credentials by a key's kind without importing the key builders (./keys.ts re-exports it).

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
  /** A tenant's redelivery pace, `REDELIVER#<tenant>` (./stored-events/keys.ts). */
  redeliveryPace: 'REDELIVER#',
} as const;

/** A kind of record, named by its key prefix (`KEY_PREFIX`). */
export type KeyKind = keyof typeof KEY_PREFIX;

/**
 * Whose the records of each kind are, and how a tenant's key of the kind ends: `prefix`
 * keys go on after the tenant (`T#<tenant>#…`), `exact` keys are the tenant's one record of
 * the kind (`RATE#<tenant>`). A tenant's kinds are what tenant-scoped credentials reach
 * (`tenantKeyPattern`, docs/threat-model.md#tenant-isolation); `none` kinds belong to no
 * tenant and stay on a function's own role. A new kind in KEY_PREFIX must say.
 */
export const KEY_OWNER: Readonly<Record<KeyKind, 'none' | { readonly tenant: 'prefix' | 'exact' }>> = {
  tenantData: { tenant: 'prefix' },
  idempotency: { tenant: 'prefix' },
  rateBucket: { tenant: 'exact' },
  tenantSettings: { tenant: 'exact' },
  listPosition: { tenant: 'prefix' },
  redeliveryPace: { tenant: 'exact' },
  tenantAlias: 'none',
  screeningEntry: 'none',
  screeningRun: 'none',
};

/** Whether the records of a kind are each one tenant's (`KEY_OWNER`). */
export const isTenantKind = (kind: KeyKind): boolean => KEY_OWNER[kind] !== 'none';

/** The kind a key belongs to, by its prefix; undefined for a key of no kind (an index partition such as `PSCREEN#3`). */
export const kindOfKey = (key: string): KeyKind | undefined =>
  (Object.keys(KEY_PREFIX) as KeyKind[]).find((kind) => key.startsWith(KEY_PREFIX[kind]));

/**
 * The IAM `StringLike` pattern of one tenant's keys of a tenant's kind: `T#<tenant>#*`,
 * `RATE#<tenant>`. `tenant` is a name, or the policy variable a tenant role's policy
 * names it by (`${aws:PrincipalTag/tenant}`); a name holds neither `*` nor `?`.
 */
export function tenantKeyPattern(kind: KeyKind, tenant: string): string {
  const owner = KEY_OWNER[kind];
  if (owner === 'none') throw new Error(`records of kind ${kind} belong to no tenant`);
  return `${KEY_PREFIX[kind]}${tenant}${owner.tenant === 'prefix' ? '#*' : ''}`;
}

/** The IAM `StringLike` pattern of every partition key of one kind: its prefix, then anything. */
export const keyPattern = (kind: KeyKind): string => `${KEY_PREFIX[kind]}*`;

/**
 * What every key of one tenant's data starts with (`T#<tenant>#`): items and the index
 * partitions of its lists. A tenant is a partner name, which holds no `#`.
 */
export const tenantDataPrefix = (tenant: string): string => `${KEY_PREFIX.tenantData}${tenant}#`;
