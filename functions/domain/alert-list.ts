import { parseCsv } from './csv';
import { parseCalendarDate } from './identification';
import { isoListedDate } from './listed-dates';
import { words } from './name-folding';
import type { ListedPerson } from './screening-match';

// The service's own alert list of known fraudulent users (docs/api.md#screening), as
// listed persons the matcher reads like OFAC's.

/*
 * The alert list (data/screening/alerts.csv), our own format:
 *
 *   id,name,date_of_birth
 *   alert-0001,Alex Alertlist,
 *   alert-0002,"FRAUDSTER, Fiona",1985-07-14
 *
 * - the header row is required, exactly these three columns in this order;
 * - id: unique and non-blank, reported as the entry id;
 * - name: "First Last" or "LAST, First" (word order does not matter to the matcher; quote
 *   the field when it holds a comma);
 * - date_of_birth: YYYY-MM-DD, or empty so that any person of that name matches.
 * We write this file ourselves, so a malformed row is a mistake to stop at, not to skip.
 */
const ALERT_HEADER = ['id', 'name', 'date_of_birth'];

/** The alert list's listed persons, ids prefixed `ALERTS-`; a malformed file throws, naming the entry. */
export function parseAlertList(text: string): ListedPerson[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.map((cell) => cell.trim().toLowerCase()).join(',') !== ALERT_HEADER.join(',')) {
    throw new Error(`alert list: the header must be "${ALERT_HEADER.join(',')}"`);
  }
  return rows.map(alertEntry);
}

function alertEntry(row: string[], index: number): ListedPerson {
  const [id = '', name = '', dateOfBirth = ''] = row.map((cell) => cell.trim());
  // Counted in data rows, not lines: blank lines are dropped and a quoted field may span lines.
  const where = `alert list, entry ${index + 1}`;
  if (!id || words(name).length === 0) throw new Error(`${where}: id and name are required`);
  if (dateOfBirth && !parseCalendarDate(dateOfBirth)) {
    throw new Error(`${where}: date_of_birth must be YYYY-MM-DD`);
  }
  const date = dateOfBirth ? isoListedDate(dateOfBirth) : undefined;
  return {
    list: 'alerts',
    source: 'ALERTS',
    entryId: `ALERTS-${id}`,
    name,
    names: [{ name, kind: 'primary' }],
    datesOfBirth: date ? [date] : [],
  };
}
