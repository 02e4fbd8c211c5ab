import { foldName } from './name-folding';
import { type IdentityData, REASON_CODES, type ReasonCode } from './person';

// The data checks of identification (docs/api.md#identification): what can be judged from
// the identity data alone, before screening and before any identity vendor. Every failed
// check adds a reason; any reason rejects the person.

// ---------------------------------------------------------------- SSN

/** The two input forms the contract allows (`123-45-6789`, `123456789`), as 9 digits. */
export function normalizeSsn(input: string): string | undefined {
  if (/^\d{9}$/.test(input)) return input;
  if (/^\d{3}-\d{2}-\d{4}$/.test(input)) return input.replaceAll('-', '');
  return undefined;
}

// ITIN group numbers (digits 4–5) the IRS issues; any other group under area 9xx was never valid.
const ITIN_GROUPS: readonly (readonly [number, number])[] = [
  [50, 65],
  [70, 88],
  [90, 92],
  [94, 99],
];

/**
 * SSA rules: area 000 and 666, group 00 and serial 0000 are never issued. Area 9xx is the
 * IRS's, so such a number can only be an ITIN, which a person may use in place of an SSN.
 */
export function isValidSsn(ssn: string): boolean {
  if (!/^\d{9}$/.test(ssn)) return false;
  const area = ssn.slice(0, 3);
  const group = Number(ssn.slice(3, 5));
  const serial = ssn.slice(5);
  if (area === '000' || area === '666' || group === 0 || serial === '0000') return false;
  if (area.startsWith('9')) return ITIN_GROUPS.some(([low, high]) => group >= low && group <= high);
  return true;
}

/** A missing SSN is a completeness matter (`incomplete_ssn`), not an invalid one. */
export const ssnReasons = (ssn: string | undefined): ReasonCode[] =>
  isGiven(ssn) && !isValidSsn(ssn) ? ['invalid_ssn'] : [];

// ---------------------------------------------------------------- date of birth

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A YYYY-MM-DD string that names a real day of the Gregorian calendar, or undefined. */
export function parseCalendarDate(value: string): CalendarDate | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!parts) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

/** The UTC calendar day of an instant: ages are judged on one day for every caller, whatever its zone. */
export const utcDate = (now: Date): CalendarDate => ({
  year: now.getUTCFullYear(),
  month: now.getUTCMonth() + 1,
  day: now.getUTCDate(),
});

const compareDates = (a: CalendarDate, b: CalendarDate): number =>
  a.year - b.year || a.month - b.month || a.day - b.day;

/**
 * Whole years completed on `today`: a year is added on the birthday itself. Someone born
 * on Feb 29 has a birthday on Mar 1 in non-leap years (Feb 28 is still before Feb 29 in
 * the comparison). We chose Mar 1 because it never counts a person older than they are:
 * an eligibility check should not admit someone a day early.
 */
export function ageOn(birth: CalendarDate, today: CalendarDate): number {
  const hadBirthday = today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  return today.year - birth.year - (hadBirthday ? 0 : 1);
}

export const MINIMUM_AGE = 18;
// A claimed age of 100 or more is far likelier a typo (1925 for 1995) than a customer.
export const MAXIMUM_AGE = 100;

/** A missing date of birth is a completeness matter (`incomplete_dob`). */
export function dateOfBirthReasons(dateOfBirth: string | undefined, now: Date): ReasonCode[] {
  if (!isGiven(dateOfBirth)) return [];
  const birth = parseCalendarDate(dateOfBirth);
  const today = utcDate(now);
  if (!birth || compareDates(birth, today) > 0) return ['invalid_dob'];
  const age = ageOn(birth, today);
  if (age >= MAXIMUM_AGE) return ['invalid_dob'];
  if (age < MINIMUM_AGE) return ['ineligible_age'];
  return [];
}

// ---------------------------------------------------------------- address

/*
 * P.O. box designators, matched on the line lower-cased, dots removed and hyphens made
 * spaces, so "P.O. Box", "P. O. Box", "P.O.Box" and "PO-Box" reach the regex as "po box",
 * "p o box", "pobox" and "po box".
 * A designator counts only when it starts a word and is followed by a box number or ends
 * the line: "PO Box 12", "POBox12", "POB #7", "PO Box" — but not "Pobox Street", "Post
 * Office Box Road" or "Boxwood Lane", which are street names.
 */
const PO_BOX_DESIGNATOR = String.raw`(?:p\s*o\s*b(?:ox|in)?|post\s*office\s*box|postal\s*box)`;
const BOX_NUMBER = String.raw`\s*(?:[#:]\s*)?(?:(?:no|number)\s*)?\d`;
const PO_BOX = new RegExp(String.raw`(?:^|[^\p{L}\p{N}])${PO_BOX_DESIGNATOR}(?:${BOX_NUMBER}|\s*$)`, 'u');
// "Box 123" as the whole line: a bare "Box" elsewhere may be a rural route ("RR 2 Box 5"), which is a place.
const BARE_BOX = /^box\s*#?\s*\d+$/;

export function isPoBox(line: string): boolean {
  const folded = line.toLowerCase().replaceAll('.', '').replaceAll('-', ' ').trim();
  return PO_BOX.test(folded) || BARE_BOX.test(folded);
}

type IdentityAddress = NonNullable<IdentityData['address']>;

/** A missing address is a completeness matter; a present one must be a complete home address. */
export function addressReasons(address: IdentityAddress | undefined): ReasonCode[] {
  if (!address) return [];
  const reasons: ReasonCode[] = [];
  const required = [address.address1, address.city, address.state, address.zip5];
  if (!required.every(isGiven)) reasons.push('incomplete_address');
  // The contract accepts `home` only: a `legal` address is a type identification does not support.
  const lines = [address.address1, address.address2 ?? ''];
  if (address.type !== 'home' || lines.some(isPoBox)) reasons.push('invalid_address_type');
  return reasons;
}

// ---------------------------------------------------------------- names

/*
 * Whole-name values that stand for "no name" (compared lower-cased, accents and spaces
 * removed, so "N / A" is "n/a" but the surname "Na" is not). Each is here for a reason:
 * - test: test and QA records that leak into production.
 * - asdf, qwerty: keyboard runs typed to get past a required field.
 * - unknown, none, n/a: a form's way of saying there is no value.
 * - null, undefined: a program serialising a missing value.
 * - fnu, lnu: US federal shorthand for "first/last name unknown". A person with a single
 *   name may really carry FNU on their documents; the rejection opens a review case, which
 *   is where such a person is accepted.
 */
export const PLACEHOLDER_NAMES: ReadonlySet<string> = new Set([
  'test',
  'asdf',
  'qwerty',
  'unknown',
  'none',
  'n/a',
  'null',
  'undefined',
  'fnu',
  'lnu',
]);

const placeholderForm = (name: string): string =>
  name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, '');

export type NamePart = 'first' | 'last';

/**
 * Decisions:
 * - digits never belong in a legal name ("Smith 3rd" must be written "Smith III");
 * - the same letter three or more times ("xxx", "aaaa") is filler; twice is allowed,
 *   because "Oo" (Burmese) and "Ee" (Chinese) are real names;
 * - a single letter is allowed as a first name (people go by an initial) but not as a last
 *   name: identification needs the full legal surname, and "John S." is the common case.
 *   The rare real one-letter surname (Korean "O") goes to review like any rejection.
 */
export function isAcceptableName(name: string, part: NamePart): boolean {
  if (!/\p{L}/u.test(name) || /\p{N}/u.test(name)) return false;
  if (PLACEHOLDER_NAMES.has(placeholderForm(name))) return false;
  const letters = foldName(name);
  if (letters.length >= 3 && new Set(letters).size === 1) return false;
  if (part === 'last' && letters.length === 1) return false;
  return true;
}

/** The middle name is optional and often an initial, so only first and last names are judged. */
export const nameReasons = (data: Pick<IdentityData, 'first_name' | 'last_name'>): ReasonCode[] =>
  isAcceptableName(data.first_name, 'first') && isAcceptableName(data.last_name, 'last') ? [] : ['invalid_name'];

// ---------------------------------------------------------------- completeness and the whole check

/** `verified` needs SSN, date of birth and address (SPEC §3.2): a person under identification lacking one is rejected. */
export function completenessReasons(data: Pick<IdentityData, 'ssn' | 'date_of_birth' | 'address'>): ReasonCode[] {
  const reasons: ReasonCode[] = [];
  if (!isGiven(data.ssn)) reasons.push('incomplete_ssn');
  if (!isGiven(data.date_of_birth)) reasons.push('incomplete_dob');
  if (!data.address) reasons.push('incomplete_address');
  return reasons;
}

/** Every data check, as distinct reasons in the contract's order (REASON_CODES), whatever order the rules ran in. */
export function checkIdentityData(data: IdentityData, now: Date): ReasonCode[] {
  const found = new Set<ReasonCode>([
    ...completenessReasons(data),
    ...nameReasons(data),
    ...ssnReasons(data.ssn),
    ...dateOfBirthReasons(data.date_of_birth, now),
    ...addressReasons(data.address),
  ]);
  return REASON_CODES.filter((code) => found.has(code));
}

/** Blank strings count as missing: a form that sends "" for an empty field has not given the value. */
function isGiven(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
