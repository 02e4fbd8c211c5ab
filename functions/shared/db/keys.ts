/**
 * Keys of the records every area shares: idempotency records and tenant aliases. Each
 * entity's own keys live beside its repository (`./verify-accounts/keys.ts`, …); the
 * access patterns they serve are listed in docs/data-model.md.
 */
export { ENTITY } from './entities';

export const keys = {
  idempotency: (tenant: string, scope: string, key: string) => ({ pk: `T#${tenant}#IDEM#${scope}#${key}`, sk: 'IDEM' }),
  tenantAlias: (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: 'ALIAS' }),
  tenantSettings: (tenant: string) => ({ pk: `TENANT#${tenant}`, sk: 'SETTINGS' }),
  rateBucket: (tenant: string) => ({ pk: `T#${tenant}#RATE`, sk: 'BUCKET' }),
};
