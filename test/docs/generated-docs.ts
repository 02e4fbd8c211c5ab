import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '#lib/repo-root';
import {
  BLOCK_END,
  BLOCK_START,
  LATEST_RESULTS_JSON,
  PERFORMANCE_DOC,
  renderLatestResults,
  withLatestResults,
} from '#test/bench/latest-results';
import type { BenchResultsFile } from '#test/bench/results';
import { SCREENING_COSTS_BLOCK, withScreeningCosts } from '#test/bench/screening-costs';
import {
  QUALITY_DOC,
  QUALITY_END,
  QUALITY_JSON,
  QUALITY_START,
  type QualityFigures,
  withQualityFigures,
} from '#test/bench/screening-quality-figures';
import type { DocBlock } from '#test/support/doc-block';
import { KEY_KINDS_BLOCK, withKeyKinds } from './key-kinds-table';
import { withStackCounts } from './stack-counts';
import type { StackFacts } from './stack-facts';

// Every figure and table of the README and docs/ that follows from something else (the
// rows, the synthesized template, the published bench results, the screening quality
// figures), in one list: `npm run docs:sync` (./sync.ts) writes each between its markers,
// and each one's test fails, saying to run it, when a page holds anything else. A page
// then needs a person's edit only where it states a decision (issue 47 item 1).

/** One generated part of a page: where it is, what it is, and the page with it written from its source. */
export interface GeneratedPart {
  readonly page: string;
  readonly what: string;
  write(doc: string): string;
}

/** The README and every page of docs/, from the repository root. */
export const DOC_PAGES: readonly string[] = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** Every generated block's markers: a block of any other name is one no command writes. */
export const GENERATED_BLOCKS: readonly DocBlock[] = [
  KEY_KINDS_BLOCK,
  SCREENING_COSTS_BLOCK,
  { page: PERFORMANCE_DOC, start: BLOCK_START, end: BLOCK_END },
  { page: QUALITY_DOC, start: QUALITY_START, end: QUALITY_END },
];

export const readPage = (page: string): string => readFileSync(join(REPO_ROOT, page), 'utf8');
const readJson = <T>(path: string): T => JSON.parse(readPage(path)) as T;

/** Every part `npm run docs:sync` writes, from the committed sources and the stack's facts. */
export function generatedParts(facts: StackFacts): GeneratedPart[] {
  const published = readJson<BenchResultsFile>(LATEST_RESULTS_JSON);
  const quality = readJson<QualityFigures>(QUALITY_JSON);
  return [
    ...DOC_PAGES.map((page) => ({
      page,
      what: 'the counts of the stack',
      write: (doc: string) => withStackCounts(page, doc, facts),
    })),
    { page: KEY_KINDS_BLOCK.page, what: 'who writes which keys', write: withKeyKinds },
    {
      page: SCREENING_COSTS_BLOCK.page,
      what: 'what screening costs',
      write: (doc) => withScreeningCosts(doc, published),
    },
    {
      page: PERFORMANCE_DOC,
      what: 'the latest bench results',
      write: (doc) => withLatestResults(doc, renderLatestResults(published)),
    },
    { page: QUALITY_DOC, what: 'the screening quality figures', write: (doc) => withQualityFigures(doc, quality) },
  ];
}

/** A page the parts change, and which of its parts changed. */
export interface PageChange {
  readonly page: string;
  readonly parts: readonly string[];
  readonly text: string;
}

/** The pages that `parts` would change, each with its new text: none when every page is up to date. */
export function pageChanges(parts: readonly GeneratedPart[]): PageChange[] {
  const pages = [...new Set(parts.map((part) => part.page))];
  return pages.flatMap((page) => {
    const before = readPage(page);
    let text = before;
    const changed: string[] = [];
    for (const part of parts.filter((p) => p.page === page)) {
      const next = part.write(text);
      if (next !== text) changed.push(part.what);
      text = next;
    }
    return text === before ? [] : [{ page, parts: changed, text }];
  });
}

/** Writes each change to its page. */
export function writeChanges(changes: readonly PageChange[]): void {
  for (const change of changes) writeFileSync(join(REPO_ROOT, change.page), change.text);
}
