import { KEY_PREFIX } from '../keys';

/** Keys of screening-list entries (docs/data-model.md, patterns 19–20). */
export const screeningKeys = {
  /** Every entry of a list with one folded name: what screening one person reads (a key lookup). */
  entries: (list: string, nameKey: string) => `${KEY_PREFIX.screeningEntry}${list}#${nameKey}`,
  entry: (list: string, nameKey: string, entryId: string) => ({
    pk: `${KEY_PREFIX.screeningEntry}${list}#${nameKey}`,
    sk: entryId,
  }),
  /** byTenant partition of a whole list, in name order: the daily re-screen walks it page by page. */
  byList: (list: string) => `${KEY_PREFIX.screeningEntry}${list}`,
  listOrder: (nameKey: string, entryId: string) => `${nameKey}#${entryId}`,
  /**
   * One listed person with every name it is known by and its dates of birth, as the
   * matcher reads it (`#domain/screening-match`); its own byTenant partition, so walking a
   * list's names (the daily re-screen) never meets one.
   */
  listing: (list: string, listingId: string) => ({
    pk: `${KEY_PREFIX.screeningEntry}${list}#LISTING#${listingId}`,
    sk: 'LISTING',
  }),
  listings: (list: string) => `${KEY_PREFIX.screeningEntry}${list}#LISTINGS`,
  /** Bumped by every change of either list, so a function holding the lists in memory sees it. */
  version: { pk: `${KEY_PREFIX.screeningEntry}VERSION`, sk: 'VERSION' },
};
