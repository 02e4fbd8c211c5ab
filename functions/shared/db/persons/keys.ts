import { keyDigest } from '../digest';
import { KEY_PREFIX } from '../key-kinds';

/** Keys of persons, their reference ids and review cases (docs/data-model.md, patterns 10–13). */
export const personKeys = {
  person: (tenant: string, id: string) => ({ pk: `${KEY_PREFIX.tenantData}${tenant}#P#${id}`, sk: 'P' }),
  /** byTenant partition: the tenant's persons with one status, in one shard (the status filter is a key). */
  list: (tenant: string, status: string, shard: number) => `${KEY_PREFIX.tenantData}${tenant}#P#${status}#${shard}`,
  order: (createdAt: string, id: string) => `${createdAt}#${id}`,
  /** The uniqueness item of a customer reference id; references appear in keys only as a keyed digest. */
  reference: (tenant: string, customerReferenceId: string) => ({
    pk: `${KEY_PREFIX.tenantData}${tenant}#PREF#${keyDigest('customer-reference', customerReferenceId)}`,
    sk: 'PREF',
  }),
  /**
   * byLookup partition: one shard of the persons of every tenant, which the re-screen of a
   * list change and the daily re-screen walk (functions/screening/rescreen.ts).
   */
  screening: (shard: number) => `PSCREEN#${shard}`,
  screeningOrder: (tenant: string, id: string) => `${tenant}#${id}`,
  reviewCase: (tenant: string, id: string, openedAt: string) => ({
    pk: `${KEY_PREFIX.tenantData}${tenant}#P#${id}`,
    sk: `REVIEW#${openedAt}`,
  }),
};
