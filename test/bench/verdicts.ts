import {
  BENCH_PARTS,
  type BenchPart,
  type BenchResults,
  type BenchResultsFile,
  GOALS,
  type Goal,
  type Verdict,
  type VerdictCount,
  type VerdictSummary,
} from './results';
import { round } from './stats';

// The one place a bench figure is judged against its goal (issue 32): results.json carries
// these verdicts, and the printed report and docs/performance.md's "Latest results" show
// them; none of those compares a figure again.

/** Whether `value` meets `goal`; a figure exactly at the limit meets it. */
export const meetsGoal = (value: number, goal: Goal): boolean =>
  goal.op === '<=' ? value <= goal.limit : value >= goal.limit;

const atMost = (limit: number): Goal => ({ op: '<=', limit });
const atLeast = (limit: number): Goal => ({ op: '>=', limit });

/** Each judged measure's goal: GOALS' limits with the side of them a figure must stay on. */
export const GOAL_OF = {
  bundle_ratio: atMost(GOALS.bundleRatio),
  init_ratio: atMost(GOALS.initRatio),
  rss_ratio: atMost(GOALS.rssRatio),
  cold_ratio: atMost(GOALS.coldRatio),
  overhead_ratio: atMost(GOALS.overheadRatio),
  list_ratio: atMost(GOALS.listRatio),
  list_rru_ratio: atMost(GOALS.listRruRatio),
  shard_ratio: atMost(GOALS.shardRatio),
  // Page 50 as clients reach it is held to the list goal (issue 21).
  sequential_ratio: atMost(GOALS.listRatio),
  cursor_ratio: atMost(GOALS.listRatio),
  events_per_s: atLeast(GOALS.pipelineEventsPerS),
  p99_ms: atMost(GOALS.pipelineP99Ms),
  usd_per_million_verifications: atMost(GOALS.usdPerMillion),
  tenant_ceiling_verifications_per_s: atLeast(GOALS.tenantCeilingPerS),
} as const satisfies Record<string, Goal>;
export type JudgedMeasure = keyof typeof GOAL_OF;

/** The tenant whose ceiling the goal judges (the other shard counts are for reading). */
export const TENANT_CEILING_SUBJECT = `${GOALS.tenantShards} list shards`;

/** The results as results.json holds them: the figures, every verdict, and their count by part. */
export function judgeResults(results: Partial<BenchResults>): BenchResultsFile {
  const verdicts = verdictsOf(results);
  return { ...results, verdicts, summary: summarize(partsOf(results), verdicts) };
}

/** Every judged figure of the parts present in `results`, in the order the report prints them. */
export function verdictsOf(results: Partial<BenchResults>): Verdict[] {
  const verdicts: Verdict[] = [];
  const judge = (part: BenchPart, measure: JudgedMeasure, value: number, subject?: string) => {
    const goal = GOAL_OF[measure];
    verdicts.push({
      part,
      measure,
      ...(subject !== undefined && { subject }),
      value,
      goal,
      meets: meetsGoal(value, goal),
    });
  };

  if (results.floor && results.handlers) {
    // rss_ratio is 0 when the run skipped the RSS phase: nothing was measured, so nothing is judged.
    const rssMeasured = results.floor.rss_mb > 0;
    for (const h of results.handlers) {
      judge('bundles', 'bundle_ratio', h.bundle_ratio, h.name);
      judge('bundles', 'init_ratio', h.init_ratio, h.name);
      if (rssMeasured) judge('bundles', 'rss_ratio', h.rss_ratio, h.name);
      // Absent when the run skipped the cold requests (and in files before issue 32).
      if (h.cold_ratio !== undefined) judge('bundles', 'cold_ratio', h.cold_ratio, h.name);
    }
  }
  for (const [name, ratio] of Object.entries(results.overhead_ratio ?? {})) {
    judge('overhead', 'overhead_ratio', ratio, name);
  }
  const list = results.list;
  if (list) {
    // Page 0 at 100k ÷ 1k. A cold `index=50` walks every entry before it, as page numbers
    // must (for reference); page 50 is judged as clients reach it, below.
    for (const row of list.rows.filter((candidate) => / page 0 /.test(candidate.name))) {
      judge('lists', 'list_ratio', row.ratio, row.name);
    }
    const rru = list.list_rru_per_page;
    if (rru) {
      judge('lists', 'list_rru_ratio', round(rru['100k'] / rru['1k'], 3), 'unfiltered');
      judge(
        'lists',
        'list_rru_ratio',
        round(rru['100k_filtered'] / rru['1k_filtered'], 3),
        'verification_status=valid',
      );
    }
    for (const row of list.shard_ratio?.rows ?? []) judge('lists', 'shard_ratio', row.ratio, row.name);
    // Page 50 as clients reach it, the worst case at 100k; the cold index=50 is for reference.
    if (list.sequential_ratio !== undefined) judge('lists', 'sequential_ratio', list.sequential_ratio);
    if (list.cursor_ratio !== undefined) judge('lists', 'cursor_ratio', list.cursor_ratio);
  }
  if (results.pipeline) {
    judge('pipeline', 'events_per_s', results.pipeline.events_per_s);
    judge('pipeline', 'p99_ms', results.pipeline.p99_ms);
  }
  if (results.cost) {
    judge('cost', 'usd_per_million_verifications', results.cost.usd_per_million_verifications);
    judge(
      'cost',
      'tenant_ceiling_verifications_per_s',
      results.cost.tenant_ceiling_verifications_per_s,
      TENANT_CEILING_SUBJECT,
    );
  }
  return verdicts;
}

/** The parts a results object holds: those its run names, or (files before issue 32) those present. */
export function partsOf(results: Partial<BenchResults>): BenchPart[] {
  if (results.run?.parts) return BENCH_PARTS.filter((part) => results.run?.parts?.includes(part));
  const present: Record<BenchPart, boolean> = {
    bundles: Boolean(results.floor && results.handlers),
    overhead: results.overhead_ratio !== undefined,
    lists: results.list !== undefined,
    pipeline: results.pipeline !== undefined,
    cost: results.cost !== undefined,
    screening: results.screening !== undefined,
  };
  return BENCH_PARTS.filter((part) => present[part]);
}

/** How many verdicts passed and failed, in all and by part (every part that ran, judged or not). */
export function summarize(parts: readonly BenchPart[], verdicts: readonly Verdict[]): VerdictSummary {
  const count = (of: readonly Verdict[]): VerdictCount => ({
    passed: of.filter((v) => v.meets).length,
    failed: of.filter((v) => !v.meets).length,
  });
  return {
    ...count(verdicts),
    parts: Object.fromEntries(parts.map((part) => [part, count(verdicts.filter((v) => v.part === part))])),
  };
}

/** The key `verdictLookup` finds a verdict by. */
const keyOf = (measure: string, subject?: string) => (subject === undefined ? measure : `${measure} ${subject}`);

/** Finds the verdict of one figure (`measure`, and `subject` where the part has several). */
export function verdictLookup(
  verdicts: readonly Verdict[],
): (measure: string, subject?: string) => Verdict | undefined {
  const byKey = new Map(verdicts.map((v) => [keyOf(v.measure, v.subject), v]));
  return (measure, subject) => byKey.get(keyOf(measure, subject));
}
