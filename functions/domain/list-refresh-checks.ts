// The checks a fetched copy of the sanctions lists passes before the refresh writes any of
// it (docs/decisions.md#screening, docs/threat-model.md): a copy cut short, emptied,
// much smaller than the stored lists, or older than the one last refreshed from is
// refused whole. The parse (every row well formed, every alias of a listed entry) comes
// before them (`parseOfacList`).

/** How far a refresh may shrink a source at once. */
export interface RefreshLimits {
  /** The most of a source's stored listed persons one refresh may take off, in percent. */
  readonly maxDropPercent: number;
  /** However small the source, this many may always go (a list of 79 loses 4 in a day). */
  readonly minDropAllowance: number;
}

/**
 * 5 %: OFAC's SDN list holds about 4,600 individuals; a day's delistings are a handful to
 * a few dozen, a cut-short download loses thousands. A larger real delisting is forced by
 * an operator (docs/operations.md#screening-lists-refresh-failed).
 */
export const DEFAULT_REFRESH_LIMITS: RefreshLimits = { maxDropPercent: 5, minDropAllowance: 10 };

/** A source's listed persons in the table and in the copy. */
export interface SourceCount {
  /** `SDN`, `CONS`, `ALERTS`. */
  readonly source: string;
  readonly stored: number;
  readonly fetched: number;
}

/** One file of the copy as checked. */
export interface FileCheck {
  readonly name: string;
  /** Whether it ends as OFAC ends its files (`endsWhole`); a folder's files are not checked for it. */
  readonly whole: boolean;
  /**
   * Whether it was downloaded: a download must say when it was published (`Last-Modified`),
   * or a replayed older copy could not be told; a folder's files are the operator's own.
   */
  readonly downloaded?: boolean;
  /** When it was published (the download's `Last-Modified`), ISO; unknown for a folder. */
  readonly publishedAt?: string;
  /** When the file the lists were last refreshed from was published, ISO. */
  readonly lastPublishedAt?: string;
}

export interface RefreshCheckInput {
  readonly counts: readonly SourceCount[];
  readonly files: readonly FileCheck[];
  readonly limits: RefreshLimits;
}

/** What is wrong with a fetched copy, one sentence each; none: it may be written. */
export function refreshProblems({ counts, files, limits }: RefreshCheckInput): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!file.whole) problems.push(`${file.name}: does not end with OFAC’s end-of-file mark (control-Z): cut short?`);
    if (file.downloaded && !file.publishedAt) {
      problems.push(
        `${file.name}: sent no Last-Modified, so it cannot be told from an older copy replayed (the one last refreshed from is the newest allowed)`,
      );
    }
    if (file.publishedAt && file.lastPublishedAt && Date.parse(file.publishedAt) < Date.parse(file.lastPublishedAt)) {
      problems.push(
        `${file.name}: published ${file.publishedAt}, before the ${file.lastPublishedAt} last refreshed from`,
      );
    }
  }
  for (const { source, stored, fetched } of counts) {
    if (fetched === 0) {
      problems.push(`${source}: no listed person`);
      continue;
    }
    const allowance = Math.max(limits.minDropAllowance, Math.floor((stored * limits.maxDropPercent) / 100));
    if (stored - fetched > allowance) {
      problems.push(
        `${source}: ${fetched} listed persons, ${stored - fetched} fewer than the ${stored} stored (at most ${allowance} may go at once)`,
      );
    }
  }
  return problems;
}

// OFAC ends each of its files with a DOS end-of-file mark (control-Z) after the last line.
const END_OF_FILE = '\u001a';

/** Whether an OFAC file ends with its end-of-file mark (trailing line breaks allowed). */
export const endsWhole = (text: string): boolean => text.trimEnd().endsWith(END_OF_FILE);
