import { ScreeningIndex } from '#domain/screening-index';
import { DEFAULT_SCREENING_THRESHOLD, type ListedPerson, type ScreeningList } from '#domain/screening-match';
import { screeningThreshold } from '#shared/config';
import { screeningListings } from './index';
import { requireSanctionsListings } from './lists-unavailable';

// The screening lists held in memory by the function that screens (docs/decisions.md#screening):
// built from the table's listings once per container and again whenever the lists'
// version has moved, which one consistent read per screening tells, so a list change is
// seen by the next screening after it.

type Indexes = Readonly<Record<ScreeningList, ScreeningIndex>>;

/** Both lists, and the version of the lists they were built from (a screening records it with its hits). */
export type HeldLists = Indexes & { readonly version: number };

let held: { version: number; lists: Promise<Indexes> } | undefined;

/** The lists as of now: the held ones while the version stands, else rebuilt from the table. */
export async function heldLists(): Promise<HeldLists> {
  const version = await screeningListings().version();
  if (held?.version !== version) {
    const lists = build();
    held = { version, lists };
    // A failed build is not kept: the next screening tries again.
    lists.catch(() => {
      if (held?.lists === lists) held = undefined;
    });
  }
  return { ...(await held.lists), version: held.version };
}

async function build(): Promise<Indexes> {
  const [sanctions, alerts] = await Promise.all([
    screeningListings().all('sanctions'),
    screeningListings().all('alerts'),
  ]);
  requireSanctionsListings(sanctions);
  return { sanctions: screeningIndexOf(sanctions), alerts: screeningIndexOf(alerts) };
}

/** Listings indexed for the matcher at the deployment's threshold. */
export const screeningIndexOf = (listings: readonly ListedPerson[]): ScreeningIndex =>
  new ScreeningIndex(listings, screeningThreshold() ?? DEFAULT_SCREENING_THRESHOLD);

/** Forgets the held lists (tests that swap the table). */
export function forgetHeldLists(): void {
  held = undefined;
}
