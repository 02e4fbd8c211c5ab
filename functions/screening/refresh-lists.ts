import {
  DEFAULT_REFRESH_LIMITS,
  endsWhole,
  nextPeaks,
  peakOf,
  type RefreshLimits,
  refreshProblems,
} from '#domain/list-refresh-checks';
import { diffListings, isEmptyDiff } from '#domain/listing-diff';
import type { ListedPerson, ScreeningList } from '#domain/screening-match';
import { screeningListings } from '#shared/db/screening/index';
import { now } from '#shared/dependencies';
import { type DownloadLimits, downloadListFiles } from './download-lists';
import { FILE_NAMES, type ListFiles, OFAC_FILES, parseListFiles, readListFiles, writeListChanges } from './load-lists';

// Refreshing the screening lists (docs/decisions.md#screening, docs/operations.md): OFAC's
// files downloaded (the daily `ListsRefresh`) or read from a folder (`npm run lists:load`,
// `npm start`), parsed, checked, and compared with the stored listings, so that only the
// listings added, changed or taken off are written, and a list that did not change writes
// nothing but the note of the refresh. A removal deletes the listing alone: the
// restrictions and hits it caused stay.

/** Where the lists come from: OFAC's files under a base URL, or a folder of them (and `alerts.csv`). */
export type ListSource = { readonly url: string } | { readonly dir: string };

export interface RefreshOptions {
  /**
   * Writes a copy the count and date checks refuse (a large delisting, a republished older
   * file, a file sent undated): an operator's decision
   * (docs/operations.md#screening-lists-refresh-failed). Never a file that does not parse,
   * a download cut short or an empty list.
   */
  readonly force?: boolean;
  readonly limits?: RefreshLimits;
  readonly download?: DownloadLimits;
}

export interface RefreshOutcome {
  /** The change written; none when the copy matched the stored lists. */
  readonly changeId?: string;
  /** Listings added or changed, and taken off. */
  readonly put: number;
  readonly removed: number;
  /** Listed persons of each source the copy covers. */
  readonly counts: Readonly<Record<string, number>>;
}

/** A copy the checks refused: nothing was written. */
export class ListsRefreshRefused extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the screening lists were not refreshed, nothing was written: ${problems.join('; ')}`);
    this.name = 'ListsRefreshRefused';
  }
}

/** The source each primary file covers, and the list its listings are on. */
const COVERED: readonly { file: keyof ListFiles; source: string; list: ScreeningList }[] = [
  { file: 'sdn', source: 'SDN', list: 'sanctions' },
  { file: 'consPrim', source: 'CONS', list: 'sanctions' },
  { file: 'alerts', source: 'ALERTS', list: 'alerts' },
];

/** Reads, checks and writes what changed; throws (writing nothing) on a copy that fails to download, parse or pass the checks. */
export async function refreshLists(source: ListSource, options: RefreshOptions = {}): Promise<RefreshOutcome> {
  const { files, published } =
    'url' in source
      ? await downloadListFiles(source.url, options.download)
      : { files: await readListFiles(source.dir), published: {} as Record<string, string> };
  const fetched = parseListFiles(files);
  const covered = COVERED.filter(({ file }) => files[file]);
  if (covered.length === 0) throw new ListsRefreshRefused(['no list file (sdn.csv, cons_prim.csv, alerts.csv) found']);
  const covers = new Set(covered.map(({ source }) => source));

  const [stored, last] = await Promise.all([
    Promise.all([...new Set(covered.map(({ list }) => list))].map((list) => screeningListings().all(list))),
    screeningListings().lastRefresh(),
  ]);
  const storedListings = stored.flat().filter((listing) => covers.has(listing.source));
  const counts = Object.fromEntries(covered.map(({ source }) => [source, countOf(fetched, source)]));
  // The alert list is the service's own file: it may be emptied, and is not held to a baseline.
  const official = covered.filter(({ source }) => source !== 'ALERTS').map(({ source }) => source);

  const problems = refreshProblems({
    counts: official.map((source) => ({
      source,
      stored: countOf(storedListings, source),
      fetched: counts[source] ?? 0,
      peak: peakOf(last?.peaks[source], now()),
    })),
    files: OFAC_FILES.flatMap((key) => {
      const file = files[key];
      if (!file) return [];
      const name = FILE_NAMES[key];
      // A download must arrive whole and dated; a folder's files are the operator's own.
      const downloaded = 'url' in source;
      const whole = downloaded ? endsWhole(file.text) : true;
      return [{ name, whole, downloaded, publishedAt: published[name], lastPublishedAt: last?.published[name] }];
    }),
    limits: options.limits ?? DEFAULT_REFRESH_LIMITS,
    forced: options.force === true,
  });
  if (problems.length > 0) throw new ListsRefreshRefused(problems);

  const diff = diffListings(storedListings, fetched, covers);
  const changeId = isEmptyDiff(diff) ? undefined : await writeListChanges(diff);
  const at = now();
  const officialCounts = Object.fromEntries(official.map((source) => [source, counts[source] ?? 0]));
  await screeningListings().recordRefresh(
    {
      published: { ...last?.published, ...published },
      counts: { ...last?.counts, ...counts },
      peaks: nextPeaks(last?.peaks ?? {}, officialCounts, at, options.force === true),
    },
    at,
  );
  return { changeId, put: diff.put.length, removed: diff.remove.length, counts };
}

const countOf = (listings: readonly ListedPerson[], source: string): number =>
  listings.reduce((n, listing) => (listing.source === source ? n + 1 : n), 0);
