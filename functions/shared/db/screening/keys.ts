import { KEY_PREFIX } from '../key-kinds';

/** Keys of the screening lists (docs/data-model.md, patterns 19–20): no tenant’s. */
export const screeningKeys = {
  /**
   * One listed person with every name it is known by and its dates of birth, as the
   * matcher reads it (`#domain/screening-match`).
   */
  listing: (list: string, listingId: string) => ({
    pk: `${KEY_PREFIX.screeningEntry}${list}#LISTING#${listingId}`,
    sk: 'LISTING',
  }),
  /** byTenant partition of a list's listings: what a function holding the lists in memory walks. */
  listings: (list: string) => `${KEY_PREFIX.screeningEntry}${list}#LISTINGS`,
  /**
   * One change of the lists (the listings added or changed): its stream record re-screens
   * the verified persons against those listings (functions/screening/rescreen.ts).
   */
  change: (changeId: string) => ({ pk: `${KEY_PREFIX.screeningEntry}CHANGE#${changeId}`, sk: 'CHANGE' }),
  /** One shard's part of one re-screen (a list change's, or a day's): what it screened, against which version. */
  run: (runId: string, shard: number) => ({ pk: `${KEY_PREFIX.screeningRun}${runId}`, sk: `SHARD#${shard}` }),
  /** Bumped by every change of either list, so a function holding the lists in memory sees it. */
  version: { pk: `${KEY_PREFIX.screeningEntry}VERSION`, sk: 'VERSION' },
};
