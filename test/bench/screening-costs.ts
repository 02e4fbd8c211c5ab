import { PAGES_PER_MESSAGE } from '#functions/screening/rescreen';
import { SCREENING_SHARDS } from '#shared/db/persons/item';
import { SCREENING_PAGE } from '#shared/db/persons/screening-walk';
import { blockOf, type DocBlock, withBlock } from '#test/support/doc-block';
import { MODEL, PRICES } from './cost-model';
import type { BenchResultsFile } from './results';

// docs/api.md#screening's "What screening costs" is the published bench run's `screening`
// part (docs/bench/latest-results.json) priced at the cost model's prices (./cost-model.ts),
// written between markers by `npm run docs:sync` and by `npm run bench -- --publish`
// (./latest-results.ts); test/unit/bench/screening-costs.test.ts fails, saying to run it,
// when the page holds other figures (issue 44 item 6: the page had drifted from the run).

export const SCREENING_COSTS_BLOCK: DocBlock = {
  page: 'docs/api.md',
  start:
    '<!-- screening-costs:start: generated from docs/bench/latest-results.json by `npm run docs:sync`; do not edit by hand -->',
  end: '<!-- screening-costs:end -->',
};

const PER_MILLION = 1_000_000;

const n = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 2 });
const usd = (value: number) => (value < 0.005 ? 'under $0.01' : `about $${value.toFixed(2)}`);
/** A wall-clock time as a reader plans with it: seconds under two minutes, minutes beyond. */
const duration = (seconds: number) =>
  seconds < 120 ? `about ${Math.round(seconds)} s` : `about ${Math.round(seconds / 60)} minutes`;
/** What Lambda bills for `seconds` of one function's compute (512 MB, arm64). */
const lambdaUsd = (seconds: number) => seconds * MODEL.lambdaMemoryGb * PRICES.lambda.usdPerGbSecondArm;

/** The "What screening costs" block of docs/api.md, from a published results file. */
export function renderScreeningCosts(r: BenchResultsFile): string {
  const busy = r.run?.load !== undefined && r.run.load > r.run.cpus ? ', a busy machine: its times read high' : '';
  const run = `the published bench run (${r.run ? `${r.run.at.slice(0, 10)}, ${r.run.cpus} cores${busy}; ` : ''}[performance.md](performance.md#latest-results))`;
  const s = r.screening;
  if (!s) {
    return `What screening costs is measured by \`npm run bench\` (its \`screening\` part); ${run} did not measure it.`;
  }
  const { walk } = s;
  const reads = usd((walk.change_rru_per_million * PRICES.dynamodb.usdPerMillionReadRequestUnits) / PER_MILLION);
  /** Lambda seconds a walk of a million persons takes, at the run's speed. */
  const change = Math.round((walk.change_ms / walk.persons) * (PER_MILLION / 1000));
  const daily = walk.daily_seconds_per_million;
  const units = (count: number) => `${n(count)} read unit${count === 1 ? '' : 's'}`;
  return [
    `What screening costs, as measured by ${run}, with DynamoDB on demand and Lambda arm64 ${MODEL.lambdaMemoryGb * 1024} MB at us-east-1's prices of ${PRICES.asOf}:`,
    '',
    '| | reads | time |',
    '|---|---|---|',
    `| one screening (identification) | ${units(s.screen_rru)}: the lists' version (a consistent GetItem); the lists themselves are held in memory, rebuilt (${units(s.build_rru)}) only after a change | ${n(s.screen_median_ms)} ms median, ${n(s.screen_p99_ms)} ms p99 of matching at full OFAC size (${n(s.listings)} listed persons; \`npm run bench -- --only screening\`) |`,
    `| one list change, 1 million persons | ${units(walk.change_rru_per_million)} (the screening index's keys and each person once, eventually consistent; measured on ${n(walk.persons)} persons and scaled), ${reads}; Lambda ${n(change)} s, ${usd(lambdaUsd(change))} | ${SCREENING_SHARDS} shards walked in parallel, ${n(SCREENING_PAGE * PAGES_PER_MESSAGE)} persons a message: ${duration(change / SCREENING_SHARDS)} |`,
    `| the daily re-screen, 1 million persons | the same reads as a change, ${reads} | each person scored against the whole lists: ${n(daily)} Lambda seconds, ${usd(lambdaUsd(daily))}; ${SCREENING_SHARDS} shards in parallel: ${duration(daily / SCREENING_SHARDS)} |`,
  ].join('\n');
}

/** The block between the markers of docs/api.md, as it stands. */
export const screeningCostsBlock = (doc: string): string => blockOf(doc, SCREENING_COSTS_BLOCK);

/** docs/api.md with its screening costs written from `results`. */
export const withScreeningCosts = (doc: string, results: BenchResultsFile): string =>
  withBlock(doc, SCREENING_COSTS_BLOCK, renderScreeningCosts(results));
