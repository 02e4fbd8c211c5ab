import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isoListedDate } from '#domain/listed-dates';
import { parseOfacList } from '#domain/ofac-lists';
import { fullNameKey, parseAlertCsv, type ScreeningEntry } from '#domain/screening';
import type { ListedPerson } from '#domain/screening-match';
import { screeningListings, screeningLists } from '#shared/db/screening/index';
import { now } from '#shared/dependencies';

// Loading the screening lists into the table (docs/api.md#screening): OFAC's files as
// published and the service's alert list, one way in for a deployed table
// (`npm run lists:load`) and a local one (`npm start`, `SCREENING_LISTS_DIR`).

/** How many items are written at once: enough to load OFAC's ~4,700 individuals in a minute or two. */
const CONCURRENCY = 16;

/** A list file: its name (for errors) and its text. */
export interface ListFile {
  readonly name: string;
  readonly text: string;
}

/** The files of a lists folder, each where present: OFAC's names, and `alerts.csv`. */
export interface ListFiles {
  readonly sdn?: ListFile;
  readonly alt?: ListFile;
  readonly add?: ListFile;
  readonly consPrim?: ListFile;
  readonly consAlt?: ListFile;
  readonly alerts?: ListFile;
}

const FILE_NAMES: Readonly<Record<keyof ListFiles, string>> = {
  sdn: 'sdn.csv',
  alt: 'alt.csv',
  add: 'add.csv',
  consPrim: 'cons_prim.csv',
  consAlt: 'cons_alt.csv',
  alerts: 'alerts.csv',
};

/** The sandbox lists that ship with the project (fictional people only). */
export const SANDBOX_LISTS_DIR = 'data/screening';

/** The list files a folder holds, by OFAC's file names and `alerts.csv`; the others are absent. */
export async function readListFiles(dir: string): Promise<ListFiles> {
  const entries = await Promise.all(
    Object.entries(FILE_NAMES).map(async ([key, name]) => {
      const text = await readFile(join(dir, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      return text === undefined ? [] : [[key, { name, text }] as const];
    }),
  );
  return Object.fromEntries(entries.flat()) as ListFiles;
}

/** The listed persons of the files, every file read before anything is written: a malformed one loads nothing. */
export function parseListFiles(files: ListFiles): ListedPerson[] {
  if (!files.sdn && (files.alt || files.add)) throw new Error('alt.csv and add.csv need the sdn.csv they belong to');
  if (!files.consPrim && files.consAlt) throw new Error('cons_alt.csv needs the cons_prim.csv it belongs to');
  return [
    ...(files.sdn
      ? parseOfacList({ source: 'SDN', primary: files.sdn, aliases: files.alt, addresses: files.add })
      : []),
    ...(files.consPrim ? parseOfacList({ source: 'CONS', primary: files.consPrim, aliases: files.consAlt }) : []),
    ...(files.alerts ? parseAlertCsv(files.alerts.text).map(alertListing) : []),
  ];
}

function alertListing(entry: ScreeningEntry): ListedPerson {
  const date = entry.dateOfBirth ? isoListedDate(entry.dateOfBirth) : undefined;
  return {
    list: 'alerts',
    source: 'ALERTS',
    entryId: `ALERTS-${entry.entryId}`,
    name: entry.name,
    names: [{ name: entry.name, kind: 'primary' }],
    datesOfBirth: date ? [date] : [],
  };
}

/**
 * Writes listed persons into the table: each listing whole (what the matcher holds in
 * memory), and one entry per name and full date of birth (the stream record of a new entry
 * re-screens the verified persons of its name); then the lists' version moves, so every
 * function holding the lists rebuilds them.
 */
export async function writeListings(listings: readonly ListedPerson[]): Promise<number> {
  const at = now();
  const writes = listings.flatMap((listing) => [
    () => screeningListings().put(listing, at),
    ...entriesOf(listing).map((entry) => () => screeningLists().put(entry, at)),
  ]);
  for (let i = 0; i < writes.length; i += CONCURRENCY) {
    await Promise.all(writes.slice(i, i + CONCURRENCY).map((write) => write()));
  }
  await screeningListings().bumpVersion(at);
  return listings.length;
}

/** A listing's names (its own and its aliases'), each with every full date of birth or none, as entries keyed by folded name. */
function entriesOf(listing: ListedPerson): ScreeningEntry[] {
  const days = listing.datesOfBirth.flatMap((date) => date.day ?? []);
  const dates = days.length > 0 && days.length === listing.datesOfBirth.length ? days : [undefined];
  return listing.names.flatMap((name, n) =>
    fullNameKey(name.name) === ''
      ? []
      : dates.map((dateOfBirth, d) => ({
          list: listing.list,
          entryId: `${listing.entryId}#${n}${dates.length > 1 ? `#${d + 1}` : ''}`,
          name: name.name,
          nameKey: fullNameKey(name.name),
          ...(dateOfBirth && { dateOfBirth }),
        })),
  );
}

/** Reads and writes a lists folder; the counts of listed persons by list. */
export async function loadListsFolder(dir: string): Promise<{ sanctions: number; alerts: number }> {
  const listings = parseListFiles(await readListFiles(dir));
  await writeListings(listings);
  return {
    sanctions: listings.filter((listing) => listing.list === 'sanctions').length,
    alerts: listings.filter((listing) => listing.list === 'alerts').length,
  };
}
