import { createHash } from 'node:crypto';
import { type DateAgreement, dateAgreement, type ListedDate } from './listed-dates';
import {
  type ListedWords,
  listedWords,
  type PersonName,
  type PersonWords,
  personWords,
  scoreWords,
} from './name-score';

// One matcher for both directions of screening (docs/api.md#screening): a person against
// a listed person, scored 0–100 from the best of the listing's names (its primary name and
// every alias) and the agreement of the dates of birth. A hit is a score at or above the
// deployment's threshold.

export type ScreeningList = 'sanctions' | 'alerts';

/** One name of a listed person: the name it is listed under, or an alias. */
export interface ListedPersonName {
  readonly name: string;
  readonly kind: 'primary' | 'aka' | 'fka' | 'nka';
  /** The list's id of the alias (OFAC's alt_num). */
  readonly aliasId?: string;
}

/** A person on a sanctions or alert list, with every name it is known by. */
export interface ListedPerson {
  readonly list: ScreeningList;
  /** Where the listing comes from: `SDN`, `CONS`, `ALERTS`, `LOCAL`, `SANDBOX`. */
  readonly source: string;
  /** Unique across lists: the source, then its own id (`SDN-306`). */
  readonly entryId: string;
  /** The name it is listed under. */
  readonly name: string;
  /** The listed name first, then its aliases. */
  readonly names: readonly ListedPersonName[];
  readonly datesOfBirth: readonly ListedDate[];
}

/** The person screened: its names and, when known, its date of birth. */
export interface ScreenedPerson extends PersonName {
  readonly date_of_birth?: string;
}

/** A person's match with one listing, as a review sees it. */
export interface Hit {
  readonly list: ScreeningList;
  readonly source: string;
  readonly entryId: string;
  /** The name the listing is listed under. */
  readonly listedName: string;
  /** Which of its names matched best (the listed name or an alias). */
  readonly matchedName: string;
  readonly matchedKind: ListedPersonName['kind'];
  /** 0–100. */
  readonly score: number;
  readonly dateOfBirth: DateAgreement;
  /**
   * What the listing said when it was matched (`listingRevision`): a review's decision
   * holds only while the listing still says it.
   */
  readonly listingRevision: string;
}

/**
 * The default threshold (a deployment setting, `SCREENING_THRESHOLD`): measured on OFAC's
 * SDN list, it catches every variant class the quality test builds and flags few others
 * (docs/api.md#screening).
 */
export const DEFAULT_SCREENING_THRESHOLD = 85;

/**
 * What the dates of birth add to a name's score: the same day is more evidence; a year
 * that no listed date allows rules the listing out, whatever the name (`conflict` takes
 * even an exact name below any threshold above 65).
 */
const DATE_POINTS: Readonly<Record<DateAgreement, number>> = { exact: 5, year: 0, unknown: 0, conflict: -35 };

/** The most the dates can add: a name this far below the threshold can never reach it. */
export const MOST_DATE_POINTS = Math.max(...Object.values(DATE_POINTS));

/** A listing's names, folded once (an index keeps them so). */
export interface PreparedListing {
  readonly listing: ListedPerson;
  readonly names: readonly ListedWords[];
  readonly revision: string;
}

export const prepareListing = (listing: ListedPerson): PreparedListing => ({
  listing,
  names: listing.names.map((name) => listedWords(name.name)),
  revision: listingRevision(listing),
});

/**
 * A digest of what a listing says about the person it lists (its names and dates of birth),
 * the same for the same content whatever its order: a cleared hit flags again once it moves.
 * Not keyed: list content is public, no secret.
 */
export function listingRevision(listing: Pick<ListedPerson, 'name' | 'names' | 'datesOfBirth'>): string {
  const names = listing.names.map((name) => `${name.kind}:${name.name}`).sort();
  const dates = listing.datesOfBirth
    .map((date) => [date.year, date.toYear, date.day ?? '', date.circa ? 'c' : ''].join('/'))
    .sort();
  const content = JSON.stringify([listing.name, names, dates]);
  return createHash('sha256').update(content).digest('hex').slice(0, 32);
}

/** The person's score against one listing: its best name, with the dates' points, 0–100. */
export function scoreListing(person: ScreenedPerson, words: PersonWords, prepared: PreparedListing): Hit {
  const { listing } = prepared;
  let best = 0;
  let bestIndex = 0;
  prepared.names.forEach((name, i) => {
    const score = scoreWords(words, name);
    if (score > best) {
      best = score;
      bestIndex = i;
    }
  });
  const agreement = dateAgreement(person.date_of_birth, listing.datesOfBirth);
  const matched = listing.names[bestIndex] ?? listing.names[0];
  return {
    list: listing.list,
    source: listing.source,
    entryId: listing.entryId,
    listedName: listing.name,
    matchedName: matched?.name ?? listing.name,
    matchedKind: matched?.kind ?? 'primary',
    score: Math.max(0, Math.min(100, Math.round(100 * best + DATE_POINTS[agreement]))),
    dateOfBirth: agreement,
    listingRevision: prepared.revision,
  };
}

/** Scores one person against one listing (both directions use this; an index only picks the listings). */
export const matchListing = (person: ScreenedPerson, listing: ListedPerson): Hit =>
  scoreListing(person, personWords(person), prepareListing(listing));
