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

// ---------------------------------------------------------------- CSV

// OFAC ends sdn.csv with a DOS end-of-file mark (control-Z) on a line of its own.
const END_OF_FILE = '\u001a';

/**
 * RFC 4180: fields separated by commas, rows by CRLF or LF; a field that starts with a
 * double quote runs to the closing quote, commas and line breaks included, and `""`
 * inside it is one quote. A quote inside an unquoted field is taken literally. Rows
 * with nothing but blanks (or the control-Z) are dropped.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRow = () => {
    row.push(field);
    if (row.some((cell) => cell.trim() !== '' && cell.trim() !== END_OF_FILE)) rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (source[i + 1] === '"') field += source[++i];
      else quoted = false;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') endRow();
    else if (char === '\r') {
      if (source[i + 1] === '\n') i++;
      endRow();
    } else field += char;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

// ---------------------------------------------------------------- OFAC SDN

// OFAC writes "-0- " where a field is empty.
const ofacCell = (value = ''): string => (value.trim() === '-0-' ? '' : value.trim());

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DOB_MENTION = /\bDOB\s+([^;]*)/gi;
const FULL_DATE = /^(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{4})$/i;

/** `12 Mar 1961` as 1961-03-12; anything else (a year, "circa", a range, a month) is no full date. */
function ofacFullDate(value: string): string | undefined {
  const parts = FULL_DATE.exec(value.trim().replace(/\.$/, ''));
  if (!parts) return undefined;
  const [, day = '', monthName = '', year = ''] = parts;
  const month = MONTHS.indexOf(monthName.toLowerCase()) + 1;
  if (month === 0) return undefined;
  const iso = `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
  return parseCalendarDate(iso) ? iso : undefined;
}

/**
 * The dates of birth an entry is listed with: one per full DOB in Remarks. When the
 * remarks give none, or any DOB that is not a full day, the answer is [undefined]: such
 * an entry must match its name whatever the date, and an undated entry already covers
 * any dated ones.
 */
export function sdnDatesOfBirth(remarks: string): (string | undefined)[] {
  const mentions = [...remarks.matchAll(DOB_MENTION)].map((mention) => ofacFullDate(mention[1] ?? ''));
  if (mentions.length === 0 || mentions.includes(undefined)) return [undefined];
  return [...new Set(mentions)];
}

const SDN_COLUMNS = { entNum: 0, name: 1, type: 2, remarks: 11 } as const;

function sdnEntries(row: string[]): ScreeningEntry[] {
  const entNum = ofacCell(row[SDN_COLUMNS.entNum]);
  const name = ofacCell(row[SDN_COLUMNS.name]);
  const key = fullNameKey(name);
  // Entities, vessels and aircraft are not persons; a nameless row could only match a nameless person.
  if (ofacCell(row[SDN_COLUMNS.type]).toLowerCase() !== 'individual' || !entNum || !key) return [];
  const dates = sdnDatesOfBirth(ofacCell(row[SDN_COLUMNS.remarks]));
  return dates.map((dateOfBirth, i) => ({
    list: 'sanctions' as const,
    entryId: dates.length > 1 ? `${entNum}#${i + 1}` : entNum,
    name,
    nameKey: key,
    ...(dateOfBirth ? { dateOfBirth } : {}),
  }));
}

/**
 * OFAC's `sdn.csv`: no header; ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign,
 * Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks. Only individuals are kept;
 * names are "LAST, First Middle" and every name word goes into the key. Aliases live in
 * OFAC's alt.csv, which this list does not read.
 */
export const parseSdnCsv = (text: string): ScreeningEntry[] => parseCsv(text).flatMap(sdnEntries);

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
