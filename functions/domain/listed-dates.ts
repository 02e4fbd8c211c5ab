import { parseCalendarDate } from './identification';

// Dates of birth as sanctions lists give them, and how one agrees with a person's
// (docs/api.md#screening). OFAC writes "DOB 10 Dec 1948", "DOB 1946", "DOB circa 1951",
// "DOB 1951 to 1953", "DOB 01 Jan 1961 to 31 Dec 1962", "DOB Sep 1938", several of them
// ("alt. DOB …") in an entry's remarks.

/** One date of birth of a listing: a day, a month or a year, or a span of them; `circa`: give or take a year. */
export interface ListedDate {
  /** The first year it may be. */
  readonly year: number;
  /** The last year it may be (a span); the same as `year` otherwise. */
  readonly toYear: number;
  /** YYYY-MM-DD when the list gives one day. */
  readonly day?: string;
  readonly circa?: boolean;
}

/** How a person's date of birth agrees with a listing's (absent on either side: `unknown`). */
export const DATE_AGREEMENTS = ['exact', 'year', 'conflict', 'unknown'] as const;
export type DateAgreement = (typeof DATE_AGREEMENTS)[number];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = /^(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{4})$/i;
const MONTH = /^([a-z]{3})[a-z]*\.?\s+(\d{4})$/i;
const YEAR = /^(\d{4})$/;

/** One date or bound as OFAC writes it, as [year, day]; undefined when it is none. */
function ofacDate(text: string): { year: number; day?: string } | undefined {
  const value = text.trim().replace(/\.$/, '');
  const year = YEAR.exec(value);
  if (year) return { year: Number(year[1]) };
  const month = MONTH.exec(value);
  if (month && MONTHS.includes((month[1] ?? '').toLowerCase())) return { year: Number(month[2]) };
  const day = DAY.exec(value);
  if (!day) return undefined;
  const [, dd = '', monthName = '', yyyy = ''] = day;
  const index = MONTHS.indexOf(monthName.toLowerCase()) + 1;
  if (index === 0) return undefined;
  const iso = `${yyyy}-${String(index).padStart(2, '0')}-${dd.padStart(2, '0')}`;
  return parseCalendarDate(iso) ? { year: Number(yyyy), day: iso } : { year: Number(yyyy) };
}

/** One "DOB …" mention: a date, "circa" a date, or "A to B" (also "A-B" between years). */
export function ofacListedDate(mention: string): ListedDate | undefined {
  const text = mention.trim().replace(/\.$/, '');
  const circa = /^circa\s+/i.test(text);
  const body = text.replace(/^circa\s+/i, '');
  const [from = '', to] = body.split(/\s+to\s+|(?<=^\d{4})-(?=\d{4}$)/i);
  const first = ofacDate(from);
  if (!first) return undefined;
  const last = to === undefined ? first : ofacDate(to);
  if (!last || last.year < first.year) return undefined;
  const single = to === undefined && first.day !== undefined && !circa;
  return { year: first.year, toYear: last.year, ...(single && { day: first.day }), ...(circa && { circa }) };
}

const DOB_MENTION = /\bDOB\s+([^;]*)/gi;

/** Every date of birth an OFAC remarks field gives; a mention that reads as no date is left out. */
export const ofacDatesOfBirth = (remarks: string): ListedDate[] =>
  [...remarks.matchAll(DOB_MENTION)].flatMap((mention) => ofacListedDate(mention[1] ?? '') ?? []);

/** A YYYY-MM-DD date of birth as a listed date (the service's own lists and the local route). */
export function isoListedDate(iso: string): ListedDate | undefined {
  if (!parseCalendarDate(iso)) return undefined;
  const year = Number(iso.slice(0, 4));
  return { year, toYear: year, day: iso };
}

/**
 * `exact`: one listed day is the person's; `year`: a listed year or span (a year either
 * side when `circa`) holds the person's year, though not a listed day (a day may be
 * mistyped, and a year-only listing says no more); `conflict`: none does; `unknown`: one
 * side has no date.
 */
export function dateAgreement(dateOfBirth: string | undefined, listed: readonly ListedDate[]): DateAgreement {
  if (!dateOfBirth || listed.length === 0) return 'unknown';
  if (listed.some((date) => date.day === dateOfBirth)) return 'exact';
  const year = Number(dateOfBirth.slice(0, 4));
  const slack = (date: ListedDate) => (date.circa ? 1 : 0);
  return listed.some((date) => date.year - slack(date) <= year && year <= date.toYear + slack(date))
    ? 'year'
    : 'conflict';
}
