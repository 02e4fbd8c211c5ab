import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '#lib/repo-root';
import { blockOf, withBlock } from '#test/support/doc-block';
import { functionTable, keptFloorTables, markOf, runLine } from './report';
import { BENCH_PARTS, type BenchResults, type BenchResultsFile, GOALS, type Goal, type Verdict } from './results';
import { SCREENING_COSTS_BLOCK, withScreeningCosts } from './screening-costs';
import { partsOf, verdictLookup } from './verdicts';

// docs/performance.md's "Latest results" block is generated from the results it shows
// (issue 32): `npm run bench -- --publish` commits the run's results.json as
// docs/bench/latest-results.json and rewrites the block between the markers from it (and
// `npm run docs:sync` from the committed file, after a change of how it is written), and
// test/unit/bench/latest-results.test.ts holds the two equal, so the table cannot drift.

/** The published results (committed) and the page that shows them, from the repository root. */
export const LATEST_RESULTS_JSON = 'docs/bench/latest-results.json';
export const PERFORMANCE_DOC = 'docs/performance.md';

export const BLOCK_START =
  '<!-- latest-results:start: generated from docs/bench/latest-results.json by test/bench/latest-results.ts; do not edit by hand -->';
export const BLOCK_END = '<!-- latest-results:end -->';

/** How the summary names each judged figure, in the order it lists them. */
const MEASURES: Readonly<Record<string, (r: Partial<BenchResults>) => string>> = {
  bundle_ratio: (r) => `bundle bytes ÷ floor (${r.floor?.bundle_bytes.toLocaleString('en')} B)`,
  init_ratio: (r) => `module init ÷ floor (${r.floor?.init_ms} ms)`,
  rss_ratio: (r) => `peak RSS ÷ floor's (${r.floor?.rss_mb} MB)`,
  cold_ratio: (r) => `cold request (init and first invocation) ÷ floor's (${r.floor?.cold_ms} ms)`,
  overhead_ratio: () => 'HTTP handler overhead (median ÷ its bare DynamoDB calls)',
  list_ratio: () => 'list page, 100k records ÷ 1k',
  list_rru_ratio: () => 'list read units per page (`GET /verify/accounts` page 0), 100k ÷ 1k',
  shard_ratio: () => 'list page 0 at 100k, 8 list shards ÷ 1',
  sequential_ratio: () => 'page 50 at 100k ÷ page 0, reached page by page (worst case)',
  cursor_ratio: () => 'page 50 at 100k ÷ page 0, by `Link` cursor (worst case)',
  events_per_s: (r) => `local pipeline, events/s (${r.pipeline?.events.toLocaleString('en')} status changes)`,
  p99_ms: () => 'local pipeline p99 ms, write to the receiver’s 2xx',
  usd_per_million_verifications: (r) => `cost per million sustained \`status\` verifications: ${r.cost?.load}`,
  tenant_ceiling_verifications_per_s: () => 'tenant ceiling, verifications/s with 8 list shards',
};

/** What a judged figure adds for reading, after its verdict. */
const DETAILS: Readonly<Record<string, (r: Partial<BenchResults>) => string | undefined>> = {
  usd_per_million_verifications: ({ cost }) =>
    cost &&
    `${cost.wcu_per_verification} WRU, ${cost.rcu_per_verification} RRU, ${cost.invocations_per_verification} invocations per verification`,
  tenant_ceiling_verifications_per_s: ({ cost }) =>
    cost && `set by \`${cost.capacity[String(GOALS.tenantShards)]?.limiting_partition ?? '–'}\``,
  p99_ms: ({ pipeline }) =>
    pipeline &&
    [
      `p50 ${pipeline.p50_ms} ms`,
      pipeline.machine_cpu_share !== undefined &&
        `${pipeline.machine_cpu_share} of the machine's cores (this process and DynamoDB Local's JVM)`,
      pipeline.floor?.cores_share_at_offered !== undefined &&
        `the same table calls alone, with a bare client: ${pipeline.floor.cores_share_at_offered} of the cores at the offered rate`,
    ]
      .filter(Boolean)
      .join('; '),
  shard_ratio: ({ list }) => {
    const rows = list?.shard_ratio?.rows.filter((row) => row.floor_ratio !== undefined) ?? [];
    if (rows.length === 0) return undefined;
    const reads = (counts?: Readonly<Record<string, number>>) => counts?.QueryCommand ?? 0;
    return `the same reads alone, with a bare client: ${rows
      .map((row) => `${row.floor_ratio} (${reads(row.reads_8_shards)} Queries against ${reads(row.reads_1_shard)})`)
      .join(', ')}`;
  },
};

const formatted = (measure: string, value: number) =>
  measure.startsWith('usd_')
    ? `$${value.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
    : value.toLocaleString('en', { maximumFractionDigits: 3 });

const goalText = (measure: string, goal: Goal) =>
  `${goal.op === '<=' ? '≤' : '≥'} ${measure.startsWith('usd_') ? '$' : ''}${goal.limit.toLocaleString('en')}`;

/** One figure's verdicts in a cell: the value (or the range of several) and ✓, or ✗ with the rows that miss. */
function resultCell(measure: string, verdicts: readonly Verdict[]): string {
  const values = verdicts.map((v) => v.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const range = low === high ? formatted(measure, low) : `${formatted(measure, low)}–${formatted(measure, high)}`;
  const missed = verdicts.filter((v) => !v.meets);
  if (missed.length === 0)
    return `${range} ${markOf(verdicts[0])}${verdicts.length > 1 ? ` (all ${verdicts.length})` : ''}`;
  if (verdicts.length === 1) return `${range} ✗`;
  const side = missed[0]?.goal.op === '<=' ? 'over' : 'under';
  const named = missed.length <= 3 ? `: ${missed.map((v) => v.subject).join('; ')}` : '';
  return `${range} ✗ (${missed.length} of ${verdicts.length} ${side}${named})`;
}

/** The "measure | result | goal" table: one row per judged figure, its functions or rows together. */
function summaryTable(r: BenchResultsFile): string[] {
  const byMeasure = new Map<string, Verdict[]>();
  for (const verdict of r.verdicts)
    byMeasure.set(verdict.measure, [...(byMeasure.get(verdict.measure) ?? []), verdict]);
  const known = Object.keys(MEASURES);
  const unknown = [...byMeasure.keys()].filter((measure) => !known.includes(measure));
  if (unknown.length > 0) {
    throw new Error(
      `no label for the measures ${unknown.join(', ')}: add them to MEASURES in test/bench/latest-results.ts`,
    );
  }
  const rows = known.flatMap((measure) => {
    const verdicts = byMeasure.get(measure);
    if (!verdicts) return [];
    const first = verdicts[0] as Verdict;
    const detail = DETAILS[measure]?.(r);
    const result = `${resultCell(measure, verdicts)}${detail ? `; ${detail}` : ''}`;
    return [`| ${MEASURES[measure]?.(r)} | ${result.replaceAll('|', '\\|')} | ${goalText(measure, first.goal)} |`];
  });
  return ['| measure | result | goal |', '| --- | --- | --- |', ...rows];
}

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;

/** The screening part's figures, which judge no goal: to read, and priced in docs/api.md#screening. */
function screeningLine({ screening: s }: Partial<BenchResults>): string[] {
  if (!s) return [];
  const n = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 2 });
  return [
    '',
    `Screening (figures to read, no goal; what they cost: [api.md](api.md#screening)): ${n(s.listings)} listed persons, ${n(s.names)} names, indexed in ${n(s.build_ms)} ms; one screening ${n(s.screen_median_ms)} ms median and ${n(s.screen_p99_ms)} ms p99, ${n(s.screen_rru)} read unit${s.screen_rru === 1 ? '' : 's'} warm, ${n(s.build_rru)} read units per cold build; a list change over ${n(s.walk.persons)} persons ${seconds(s.walk.change_ms)} and ${n(s.walk.change_rru)} read units (${n(s.walk.change_rru_per_million)} per million persons); the daily re-screen ${seconds(s.walk.daily_ms)} (${n(s.walk.daily_seconds_per_million)} s per million persons).`,
  ];
}

/** The "Latest results" block of docs/performance.md, from a results file. */
export function renderLatestResults(r: BenchResultsFile): string {
  const parts = partsOf(r);
  const notRun = BENCH_PARTS.filter((part) => !parts.includes(part));
  const { passed, failed } = r.summary;
  const busy =
    r.run?.load !== undefined && r.run.load > r.run.cpus
      ? [
          'A busy machine (more runnable processes than cores): its times, and the Lambda compute priced from them, read high.',
        ]
      : [];
  const lines = [
    r.run ? `${runLine({ ...r.run, parts })}.` : 'Run of unknown date.',
    ...busy,
    notRun.length > 0
      ? `Not run: ${notRun.map((part) => `\`${part}\``).join(', ')}; no figure here judges their goals.`
      : 'Every part ran.',
    '',
    `${passed} of ${passed + failed} judged figures meet their goals.`,
    '',
    ...summaryTable(r),
    ...screeningLine(r),
  ];
  if (r.floor && r.handlers) {
    const functions = { floor: r.floor, handlers: r.handlers };
    const kept = keptFloorTables(functions);
    lines.push('', ...functionTable(functions, verdictLookup(r.verdicts)), ...(kept.length > 0 ? ['', ...kept] : []));
  }
  return lines.join('\n');
}

const LATEST_BLOCK = { page: PERFORMANCE_DOC, start: BLOCK_START, end: BLOCK_END };

/** The text between the block's markers in `doc` (without the newlines that frame it). */
export const latestResultsBlock = (doc: string): string => blockOf(doc, LATEST_BLOCK);

/** `doc` with its block replaced by `block`. */
export const withLatestResults = (doc: string, block: string): string => withBlock(doc, LATEST_BLOCK, block);

/**
 * Commits `results` as the latest: the JSON file, and the blocks generated from it, docs/performance.md's
 * and docs/api.md's screening costs (./screening-costs.ts).
 */
export function publishResults(results: BenchResultsFile): void {
  const json = join(REPO_ROOT, LATEST_RESULTS_JSON);
  mkdirSync(dirname(json), { recursive: true });
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  const rewrite = (page: string, write: (doc: string) => string) => {
    const path = join(REPO_ROOT, page);
    writeFileSync(path, write(readFileSync(path, 'utf8')));
  };
  rewrite(PERFORMANCE_DOC, (doc) => withLatestResults(doc, renderLatestResults(results)));
  rewrite(SCREENING_COSTS_BLOCK.page, (doc) => withScreeningCosts(doc, results));
}
