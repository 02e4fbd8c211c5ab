import { blockOf, withBlock } from '#test/support/doc-block';

// docs/testing.md's screening quality figures are generated from the results file
// `npm run screening:quality` writes (./screening-quality.ts), between markers, and
// test/unit/bench/screening-quality.test.ts holds the two equal, as docs/performance.md's
// latest results are (./latest-results.ts).

export const QUALITY_JSON = 'docs/bench/screening-quality.json';
export const QUALITY_DOC = 'docs/testing.md';
export const QUALITY_START =
  '<!-- screening-quality:start: generated from docs/bench/screening-quality.json by `npm run screening:quality`; do not edit by hand -->';
export const QUALITY_END = '<!-- screening-quality:end -->';

/** Recall of one class, or a share of a negative set flagged, in percent, with the listed (or a) date of birth and without. */
export interface QualityShare {
  readonly persons: number;
  readonly with_date: number;
  readonly without_date: number;
}

export interface QualityFigures {
  /** The day of the run (YYYY-MM-DD). */
  readonly at: string;
  readonly listings: number;
  readonly threshold: number;
  readonly per_class: number;
  readonly recall_percent: Readonly<Record<string, QualityShare>>;
  /** Common US names flagged against any listing. */
  readonly common_us_names_flagged_percent: QualityShare;
  /** Another given name under a listed surname taken for that listing. */
  readonly other_given_names_taken_percent: QualityShare;
}

const pct = (value: number) => `${value.toLocaleString('en', { maximumFractionDigits: 2 })} %`;

/** The figures block of docs/testing.md#screening-quality. */
export function renderQualityFigures(figures: QualityFigures): string {
  const rows = Object.entries(figures.recall_percent).map(
    ([kind, share]) => `| \`${kind}\` | ${share.persons} | ${pct(share.with_date)} | ${pct(share.without_date)} |`,
  );
  const negative = (label: string, share: QualityShare, goal: string) =>
    `| ${label} | ${share.persons} | ${pct(share.with_date)} | ${pct(share.without_date)} | ${goal} |`;
  return [
    `Measured ${figures.at} on the SDN list's ${figures.listings.toLocaleString('en')} listed persons at threshold ${figures.threshold}, ${figures.per_class} persons per class:`,
    '',
    '| class | persons | caught, listed date of birth | caught, no date of birth |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    '| not listed | persons | flagged, with a date of birth | flagged, without one | goal |',
    '| --- | --- | --- | --- | --- |',
    negative('common US names', figures.common_us_names_flagged_percent, '≤ 0.5 % with a date of birth'),
    negative('another given name under a listed surname', figures.other_given_names_taken_percent, '≤ 5 %'),
  ].join('\n');
}

const QUALITY_BLOCK = { page: QUALITY_DOC, start: QUALITY_START, end: QUALITY_END };

/** The text between the markers in `doc`, without the newlines that frame it. */
export const qualityFiguresBlock = (doc: string): string => blockOf(doc, QUALITY_BLOCK);

/** `doc` with its figures block rendered from `figures`. */
export const withQualityFigures = (doc: string, figures: QualityFigures): string =>
  withBlock(doc, QUALITY_BLOCK, renderQualityFigures(figures));
