import type { ListedDate } from './listed-dates';
import type { ListedPerson, ListedPersonName, ScreeningList } from './screening-match';

// What a refresh of the lists writes (docs/decisions.md#screening): only the listings a
// fetched copy adds, changes or no longer holds, so that a list change re-screens persons
// against the listings concerned alone, and an unchanged copy writes nothing.

/** A listing by its list and id (as the table keys it). */
export interface ListingKey {
  readonly list: ScreeningList;
  readonly entryId: string;
}

export interface ListingDiff {
  /** Listings the copy adds, or holds with another name, alias or date of birth. */
  readonly put: ListedPerson[];
  /** Listings of a covered source the copy no longer holds. */
  readonly remove: ListingKey[];
}

/**
 * The difference between the stored listings and a fetched copy of the sources it
 * `covers` (`SDN`, `CONS`, `ALERTS`: the files that were read). Stored listings of other
 * sources (the local and sandbox entries, a list not fetched) are never removed. Two
 * listings are the same when their source, listed name, names (with their kinds and
 * alias ids) and dates of birth are, in whatever order the file gave the aliases and dates.
 */
export function diffListings(
  stored: readonly ListedPerson[],
  fetched: readonly ListedPerson[],
  covers: ReadonlySet<string>,
): ListingDiff {
  const storedByKey = new Map(stored.map((listing) => [keyOf(listing), listing]));
  const fetchedKeys = new Set<string>();
  const put: ListedPerson[] = [];
  for (const listing of fetched) {
    if (!covers.has(listing.source)) {
      throw new Error(`listing ${listing.entryId} is of source ${listing.source}, which the copy does not cover`);
    }
    const key = keyOf(listing);
    fetchedKeys.add(key);
    const before = storedByKey.get(key);
    if (!before || contentOf(before) !== contentOf(listing)) put.push(listing);
  }
  const remove = stored
    .filter((listing) => covers.has(listing.source) && !fetchedKeys.has(keyOf(listing)))
    .map(({ list, entryId }) => ({ list, entryId }));
  return { put, remove };
}

/** Whether a diff writes nothing. */
export const isEmptyDiff = (diff: ListingDiff): boolean => diff.put.length === 0 && diff.remove.length === 0;

const keyOf = (listing: ListingKey): string => `${listing.list}\u0000${listing.entryId}`;

const nameOf = (name: ListedPersonName): string => [name.kind, name.aliasId ?? '', name.name].join('\u0001');
const dateOf = (date: ListedDate): string =>
  [date.year, date.toYear, date.day ?? '', date.circa ? 1 : 0].join('\u0001');

/** What the matcher reads of a listing, order-free: equal strings, equal screening. */
function contentOf(listing: ListedPerson): string {
  return [
    listing.source,
    listing.name,
    listing.names.map(nameOf).sort().join('\u0002'),
    listing.datesOfBirth.map(dateOf).sort().join('\u0002'),
  ].join('\u0003');
}
