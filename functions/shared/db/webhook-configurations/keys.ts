import { KEY_PREFIX } from '../key-kinds';

/** Keys of webhook configurations (docs/data-model.md, patterns 15 and 16); the signing secret's are `../webhook-secrets/keys.ts`. */
export const webhookConfigurationKeys = {
  /** The tenant's configurations: one partition, sort key the configuration id (few per tenant). */
  configurations: (tenant: string) => `${KEY_PREFIX.tenantData}${tenant}#WHC`,
  configuration: (tenant: string, id: string) => ({ pk: `${KEY_PREFIX.tenantData}${tenant}#WHC`, sk: id }),
  /** How many configurations the tenant holds, kept beside them in every write, so the cap is exact. */
  configurationCount: (tenant: string) => ({ pk: `${KEY_PREFIX.tenantData}${tenant}#WHCCOUNT`, sk: 'COUNT' }),
};
