import { keyDigest } from './digest';
import { KEY_PREFIX } from './key-kinds';

// Keys of the records every area shares: idempotency records, rate buckets, tenant aliases
// and settings. The kinds every partition key belongs to (KEY_PREFIX, KEY_OWNER) have one
// home, ./key-kinds.ts; each entity's own keys live beside its repository
// (`./verify-accounts/keys.ts`, …); the access patterns they serve are listed in
// docs/data-model.md.

export { ENTITY } from './entities';

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
