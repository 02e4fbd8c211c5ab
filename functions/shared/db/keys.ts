import { keyDigest } from './digest';

// Keys of the records every area shares: idempotency records, rate buckets, tenant aliases
// and settings. Each entity's own keys live beside its repository
// (`./verify-accounts/keys.ts`, …); the access patterns they serve are listed in
// docs/data-model.md.

export { ENTITY } from './entities';

/**
 * The fixed kind prefix each shared record's partition key starts with. Tenant data starts
 * with `T#`, so an IAM `dynamodb:LeadingKeys` pattern `<prefix>*` can grant the HTTP
 * middleware its own records and never a data item (functions/shared/http/table-access.ts).
 */
export const KEY_PREFIX = {
  idempotency: 'IDEM#',
  rateBucket: 'RATE#',
  tenantAlias: 'CLIENT#',
  tenantSettings: 'TENANT#',
  /** Where served list pages ended: cursors and bookmarks (./list-positions/). */
  listPosition: 'PAGE#',
} as const;

/**
 * What every key of one tenant's data starts with (`T#<tenant>#`): items and the index
 * partitions of its lists. A tenant is a partner name, which holds no `#`.
 */
export const tenantDataPrefix = (tenant: string): string => `T#${tenant}#`;

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
