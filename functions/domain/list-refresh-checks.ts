// The checks a fetched copy of the sanctions lists passes before the refresh writes any of
// it (docs/decisions.md#screening, docs/threat-model.md): a copy cut short, emptied,
// undated, much smaller than the lists have been in the last 30 days, or older than the
// one last refreshed from is refused whole. The parse (every row well formed, every alias
// of a listed entry) comes before them (`parseOfacList`).

/** How far a source may shrink. */
export interface RefreshLimits {
  /**
   * The most of a source's listed persons that may go within `BASELINE_DAYS`, in percent
   * of its largest count in them: drops add up, so 5 % a day cannot pass twice.
   */
  readonly maxDropPercent: number;
  /** However small the source, this many may always go (a list of 79 loses 4 in a day). */
  readonly minDropAllowance: number;
}

/**
 * 5 %: OFAC's SDN list holds about 4,600 individuals; a month's delistings are a handful to
 * a few dozen, a cut-short download loses thousands. A larger real delisting is forced by
 * an operator (docs/operations.md#screening-lists-refresh-failed).
 */
export const DEFAULT_REFRESH_LIMITS: RefreshLimits = { maxDropPercent: 5, minDropAllowance: 10 };

/**
 * How long a source's largest count stays the baseline its drops are measured from: a copy
 * shrinking a little each day is refused once it is `maxDropPercent` below the largest
 * count of these last days, however small each day's step.
 */
export const BASELINE_DAYS = 30;

/** A source's largest listed-person count of each UTC day (`YYYY-MM-DD`) a refresh wrote it, the last `BASELINE_DAYS` only. */
export type DailyPeaks = Readonly<Record<string, number>>;

/** A source's largest count in the last `BASELINE_DAYS` up to `now`, and its day; undefined when none is noted. */
export function peakOf(peaks: DailyPeaks | undefined, now: Date): { count: number; day: string } | undefined {
  let peak: { count: number; day: string } | undefined;
  for (const [day, count] of Object.entries(peaks ?? {})) {
    if (day >= firstDay(now) && (!peak || count > peak.count)) peak = { count, day };
  }
  return peak;
}

/**
 * Each source's daily peaks once a refresh at `now` wrote `counts`: today's raised to the
 * count, days before the last `BASELINE_DAYS` forgotten (at most 30 a source). A `forced`
 * refresh starts each source it wrote afresh at its count: the operator accepted that
 * level (a real mass delisting would otherwise be refused for 30 days).
 */
export function nextPeaks(
  previous: Readonly<Record<string, DailyPeaks>>,
  counts: Readonly<Record<string, number>>,
  now: Date,
  forced: boolean,
): Record<string, DailyPeaks> {
  const today = dayOf(now);
  const peaks: Record<string, Record<string, number>> = {};
  for (const [source, days] of Object.entries(previous)) {
    if (forced && source in counts) continue;
    const kept = Object.entries(days).filter(([day]) => day >= firstDay(now));
    if (kept.length > 0) peaks[source] = Object.fromEntries(kept);
  }
  for (const [source, count] of Object.entries(counts)) {
    const days = peaks[source] ?? {};
    peaks[source] = { ...days, [today]: Math.max(days[today] ?? 0, count) };
  }
  return peaks;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
/** The first day of the last `BASELINE_DAYS`, today included. */
const firstDay = (now: Date): string => dayOf(new Date(now.getTime() - (BASELINE_DAYS - 1) * DAY_MS));

/** A source's listed persons in the table and in the copy. */
export interface SourceCount {
  /** `SDN`, `CONS`, `ALERTS`. */
  readonly source: string;
  readonly stored: number;
  readonly fetched: number;
  /** Its largest count in the last `BASELINE_DAYS` (`peakOf`), where noted: the baseline when above `stored`. */
  readonly peak?: { readonly count: number; readonly day: string };
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
  /**
   * An operator's decision (docs/operations.md#screening-lists-refresh-failed): the count
   * and date checks are lifted (a real mass delisting, an older file OFAC republished, a
   * file sent undated); a copy cut short or a source emptied is still refused.
   */
  readonly forced?: boolean;
}

/** What is wrong with a fetched copy, one sentence each; none: it may be written. */
export function refreshProblems({ counts, files, limits, forced = false }: RefreshCheckInput): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!file.whole) problems.push(`${file.name}: does not end with OFAC’s end-of-file mark (control-Z): cut short?`);
    if (forced) continue;
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
  for (const { source, stored, fetched, peak } of counts) {
    if (fetched === 0) {
      problems.push(`${source}: no listed person`);
      continue;
    }
    if (forced) continue;
    const above = peak && peak.count > stored ? peak : undefined;
    const baseline = above?.count ?? stored;
    const allowance = Math.max(limits.minDropAllowance, Math.floor((baseline * limits.maxDropPercent) / 100));
    if (baseline - fetched <= allowance) continue;
    const fewer = `${source}: ${fetched} listed persons, ${baseline - fetched} fewer than the`;
    problems.push(
      above
        ? `${fewer} ${baseline} of ${above.day}, the most in the last ${BASELINE_DAYS} days (at most ${allowance} may go within ${BASELINE_DAYS} days)`
        : `${fewer} ${stored} stored (at most ${allowance} may go at once)`,
    );
  }
  return problems;
}

// OFAC ends each of its files with a DOS end-of-file mark (control-Z) after the last line.
const END_OF_FILE = '\u001a';

/** Whether an OFAC file ends with its end-of-file mark (trailing line breaks allowed). */
export const endsWhole = (text: string): boolean => text.trimEnd().endsWith(END_OF_FILE);
