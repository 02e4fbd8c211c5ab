import { KEY_PREFIX } from '../key-kinds';

/** The key of a tenant's webhook signing secret (docs/data-model.md, pattern 17). */
export const webhookSecretKeys = {
  secret: (tenant: string) => ({ pk: `${KEY_PREFIX.tenantData}${tenant}#WHSECRET`, sk: 'SECRET' }),
};
