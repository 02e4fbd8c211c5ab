/**
 * Keys of the records every area shares: idempotency records and tenant aliases. Each
 * entity's own keys live beside its repository (`./verify-accounts/keys.ts`, …); the
 * access patterns they serve are listed in docs/data-model.md.
 */
import { keyDigest } from './digest';

export { ENTITY } from './entities';

export const keys = {
  /** The `Idempotency-Key` only as a keyed digest: a partner may have used an account number or an SSN as the key. */
  idempotency: (tenant: string, scope: string, key: string) => ({
    pk: `T#${tenant}#IDEM#${scope}#${keyDigest('idempotency-key', key)}`,
    sk: 'IDEM',
  }),
  tenantAlias: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'ALIAS' }),
  tenantSettings: (tenant: string) => ({ pk: `TENANT#${tenant}`, sk: 'SETTINGS' }),
  rateBucket: (tenant: string) => ({ pk: `T#${tenant}#RATE`, sk: 'BUCKET' }),
};
