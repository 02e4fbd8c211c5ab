import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAlertList } from '#domain/alert-list';
import { parseOfacList } from '#domain/ofac-lists';
import type { ListedPerson } from '#domain/screening-match';
import { screeningListings } from '#shared/db/screening/index';
import type { ListingRef } from '#shared/db/screening/listings';
import { now } from '#shared/dependencies';

// The screening lists' files and their writing into the table (docs/api.md#screening):
// OFAC's files as published and the service's alert list, read from a folder or
// downloaded, written by a refresh (./refresh-lists.ts), which writes only what changed,
// or one local entry at a time (POST /local/sanctions/entries).

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

/** Each list file's name, in a folder and under the download's base URL alike. */
export const FILE_NAMES: Readonly<Record<keyof ListFiles, string>> = {
  sdn: 'sdn.csv',
  alt: 'alt.csv',
  add: 'add.csv',
  consPrim: 'cons_prim.csv',
  consAlt: 'cons_alt.csv',
  alerts: 'alerts.csv',
};

/** OFAC's files: what a download of its lists fetches (alerts.csv is the service's own). */
export const OFAC_FILES = ['sdn', 'alt', 'add', 'consPrim', 'consAlt'] as const satisfies readonly (keyof ListFiles)[];

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
    ...(files.alerts ? parseAlertList(files.alerts.text) : []),
  ];
}

/** What a write of the lists changes: listings added or replaced, listings taken off. */
export interface ListChanges {
  readonly put?: readonly ListedPerson[];
  readonly remove?: readonly ListingRef[];
}

/**
 * Writes a change of the lists into the table: each listing whole (what the matcher holds
 * in memory), each removal, then the change (`recordChange`), whose stream record
 * re-screens every verified person against the listings put, and which moves the lists'
 * version so every function holding the lists rebuilds them. Safe to repeat. The change's id.
 */
export async function writeListChanges({ put = [], remove = [] }: ListChanges): Promise<string> {
  const at = now();
  const writes = [
    ...put.map((listing) => () => screeningListings().put(listing, at)),
    ...remove.map((ref) => () => screeningListings().remove(ref)),
  ];
  for (let i = 0; i < writes.length; i += CONCURRENCY) {
    await Promise.all(writes.slice(i, i + CONCURRENCY).map((write) => write()));
  }
  return screeningListings().recordChange(put, at);
}
