import { parseCsv } from './csv';
import { parseCalendarDate } from './identification';
import { words } from './name-folding';
import { REASON_CODES, type ReasonCode } from './person';

// Screening against the sanctions list (OFAC's SDN file) and the alert list of known
// fraudulent users (docs/api.md#screening): a person matches an entry when the names are
// equal after folding, and the dates of birth are equal when both sides have one.

export type ScreeningList = 'sanctions' | 'alerts';

export interface ScreeningEntry {
  list: ScreeningList;
  /** The list's own id (OFAC's ent_num), suffixed `#<n>` when one listing yields several entries. */
  entryId: string;
  /** The name as the list writes it, for the review case. */
  name: string;
  nameKey: string;
  /** YYYY-MM-DD; absent when the list gives none or only a partial one, so that any date matches. */
  dateOfBirth?: string;
}

export interface ScreenedPerson {
  first_name: string;
  middle_name?: string;
  last_name: string;
  date_of_birth?: string;
}

/**
 * Case, diacritics, punctuation and word order folded: lists write "LAST, First" and
 * partners write "First Last", and a transliterated name's order is not reliable either.
 */
export const fullNameKey = (name: string): string => words(name).sort().join(' ');

export const nameKey = (first: string, last: string): string => fullNameKey(`${first} ${last}`);

/**
 * The SDN file writes middle names into the listing, while partners often leave them out:
 * a person is tried both with and without its middle name so neither habit hides a match.
 */
function personNameKeys(person: ScreenedPerson): string[] {
  const keys = [nameKey(person.first_name, person.last_name)];
  if (person.middle_name?.trim())
    keys.push(fullNameKey(`${person.first_name} ${person.middle_name} ${person.last_name}`));
  return keys;
}

export function matches(person: ScreenedPerson, entry: ScreeningEntry): boolean {
  if (!personNameKeys(person).includes(entry.nameKey)) return false;
  return !person.date_of_birth || !entry.dateOfBirth || person.date_of_birth === entry.dateOfBirth;
}

export const findMatches = (person: ScreenedPerson, entries: readonly ScreeningEntry[]): ScreeningEntry[] =>
  entries.filter((entry) => matches(person, entry));

const LIST_REASONS: Record<ScreeningList, ReasonCode> = {
  sanctions: 'matched_watchlist',
  alerts: 'matched_alertlist',
};

/** The screening reasons of a person, distinct and in the contract's order. */
export function screeningReasons(person: ScreenedPerson, entries: readonly ScreeningEntry[]): ReasonCode[] {
  const found = new Set(findMatches(person, entries).map((entry) => LIST_REASONS[entry.list]));
  return REASON_CODES.filter((code) => found.has(code));
}

// ---------------------------------------------------------------- alert list

/*
 * The alert list (data/screening/alerts.csv), our own format:
 *
 *   id,name,date_of_birth
 *   alert-0001,Alex Alertlist,
 *   alert-0002,"FRAUDSTER, Fiona",1985-07-14
 *
 * - the header row is required, exactly these three columns in this order;
 * - id: unique and non-blank, reported as the entry id;
 * - name: "First Last" or "LAST, First" (word order does not matter to the key; quote
 *   the field when it holds a comma);
 * - date_of_birth: YYYY-MM-DD, or empty so that any person of that name matches.
 * We write this file ourselves, so a malformed row is a mistake to stop at, not to skip.
 */
const ALERT_HEADER = ['id', 'name', 'date_of_birth'];

export function parseAlertCsv(text: string): ScreeningEntry[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.map((cell) => cell.trim().toLowerCase()).join(',') !== ALERT_HEADER.join(',')) {
    throw new Error(`alert list: the header must be "${ALERT_HEADER.join(',')}"`);
  }
  return rows.map(alertEntry);
}

function alertEntry(row: string[], index: number): ScreeningEntry {
  const [id = '', name = '', dateOfBirth = ''] = row.map((cell) => cell.trim());
  // Counted in data rows, not lines: blank lines are dropped and a quoted field may span lines.
  const where = `alert list, entry ${index + 1}`;
  if (!id || !fullNameKey(name)) throw new Error(`${where}: id and name are required`);
  if (dateOfBirth && !parseCalendarDate(dateOfBirth)) {
    throw new Error(`${where}: date_of_birth must be YYYY-MM-DD`);
  }
  return { list: 'alerts', entryId: id, name, nameKey: fullNameKey(name), ...(dateOfBirth ? { dateOfBirth } : {}) };
}
