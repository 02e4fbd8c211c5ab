import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { silentLog } from '#lib/local/log';
import { REPO_ROOT } from '#lib/repo-root';
import { measureBundles } from './bundles';
import type { BenchContext } from './context';
import { measureCost } from './cost';
import { useBenchListShards } from './list-shards';
import { measureLists } from './lists';
import { measureOverhead } from './overhead';
import { measurePipeline } from './pipeline';
import { type BenchResults, GOALS } from './results';
import { measureScreening } from './screening';
import { round } from './stats';

/**
 * `npm run bench [-- --only bundles,overhead,lists,pipeline,cost,screening]`: every benchmark of the
 * service in one run, each part on a DynamoDB Local of its own (one that earlier parts
 * filled slows the next: DynamoDB Local keeps every table's stream records in one store). Prints a table (stdout) and
 * writes `.bench/results.json` (git-ignored) so versions can be compared. Progress goes
 * to stderr. Not part of `npm test`: timings judge nothing there (docs/performance.md).
 */
const PARTS = ['bundles', 'overhead', 'lists', 'pipeline', 'cost', 'screening'] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = new Set((values.only?.split(',') ?? PARTS) as Part[]);
for (const part of only) {
  if (!PARTS.includes(part)) {
    console.error(`unknown part "${part}"; parts: ${PARTS.join(', ')}`);
    process.exit(2);
  }
}
useBenchListShards();

const BENCH_DIR = join(REPO_ROOT, '.bench');
const log = (message: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);

async function measure<T>(part: Part, fn: (context: BenchContext) => Promise<T>): Promise<T | undefined> {
  if (!only.has(part)) return undefined;
  const started = performance.now();
  log(`[${part}] started`);
  const workDir = join(BENCH_DIR, 'work', part);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const dynamo = await startDynamoDbLocal({ log: silentLog });
  try {
    const result = await fn({
      dynamoEndpoint: dynamo.endpoint,
      workDir,
      log: (message) => log(`[${part}] ${message}`),
    });
    log(`[${part}] done in ${Math.round((performance.now() - started) / 1000)} s`);
    return result;
  } finally {
    await dynamo.stop();
  }
}

const at = new Date().toISOString();
const bundles = await measure('bundles', measureBundles);
const overhead = await measure('overhead', measureOverhead);
const list = await measure('lists', measureLists);
const pipeline = await measure('pipeline', measurePipeline);
const cost = await measure('cost', measureCost);
const screening = await measure('screening', measureScreening);
const results: Partial<BenchResults> = {
  run: { at, commit: gitCommit(), node: process.versions.node, cpus: availableParallelism() },
  ...(bundles && { floor: bundles.floor, handlers: bundles.handlers }),
  overhead_ratio: overhead,
  list,
  pipeline,
  // Issue 12 reports the list's read units per page with the cost figures.
  cost: cost && list?.list_rru_per_page ? { ...cost, list_rru_per_page: list.list_rru_per_page } : cost,
  screening,
};

mkdirSync(BENCH_DIR, { recursive: true });
writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(report(results));
log(`results written to .bench/results.json`);

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** The results as Markdown tables, each figure beside its goal (✓ met, ✗ missed). */
function report(r: Partial<BenchResults>): string {
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  const lines: string[] = [];
  if (r.run) {
    // The floor and every init time move with the Node.js version: a run names the one it measured.
    lines.push(
      `Run of ${r.run.at.slice(0, 10)} at commit \`${r.run.commit}\`, Node.js ${r.run.node}, ${r.run.cpus} cores`,
      '',
    );
  }
  if (r.floor && r.handlers) {
    lines.push(
      `Floor (one GetCommand, bundled as the stack bundles): ${r.floor.bundle_bytes.toLocaleString('en')} bytes, init ${r.floor.init_ms} ms, peak RSS ${r.floor.rss_mb} MB`,
      '',
      `| function | bundle bytes | ×floor (≤ ${GOALS.bundleRatio}) | init ms | ×floor (≤ ${GOALS.initRatio}) | peak RSS MB | ×floor (≤ ${GOALS.rssRatio}) |`,
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...r.handlers.map(
        (h) =>
          `| ${h.name} | ${h.bundle_bytes.toLocaleString('en')} | ${h.bundle_ratio} ${mark(h.bundle_ratio <= GOALS.bundleRatio)} | ${h.init_ms} | ${h.init_ratio} ${mark(h.init_ratio <= GOALS.initRatio)} | ${h.rss_mb} | ${h.rss_ratio} ${mark(h.rss_ratio <= GOALS.rssRatio)} |`,
      ),
      '',
    );
  }
  if (r.screening) {
    const s = r.screening;
    lines.push(
      `Screening at full list size (${s.listings.toLocaleString('en')} listed persons, ${s.names.toLocaleString('en')} names): index built in ${s.build_ms} ms (${s.build_rru} read units to read the listings, once per cold worker or list change); one screening ${s.screen_median_ms} ms median, ${s.screen_p99_ms} ms p99, ${s.screen_rru} read unit (the lists' version)`,
      `A list change (one listing) re-screening ${s.walk.persons.toLocaleString('en')} verified persons: ${s.walk.change_ms} ms, ${s.walk.change_rru} read units (${s.walk.change_rru_per_million.toLocaleString('en')} per million persons); the daily re-screen against the whole lists: ${s.walk.daily_ms} ms (${s.walk.daily_seconds_per_million.toLocaleString('en')} s of scoring and reading per million persons, one process)`,
      '',
    );
  }
  if (r.overhead_ratio) {
    lines.push(
      `| HTTP handler | overhead ratio (≤ ${GOALS.overheadRatio}) |`,
      '| --- | ---: |',
      ...Object.entries(r.overhead_ratio).map(
        ([name, ratio]) => `| ${name} | ${ratio} ${mark(ratio <= GOALS.overheadRatio)} |`,
      ),
      '',
    );
  }
  if (r.list) {
    lines.push(
      `| list page | 1k ms | 100k ms | ratio (≤ ${GOALS.listRatio}) |`,
      '| --- | ---: | ---: | ---: |',
      ...r.list.rows.map(
        (row) => `| ${row.name} | ${row.ms_1k} | ${row.ms_100k} | ${row.ratio} ${mark(row.ratio <= GOALS.listRatio)} |`,
      ),
      '',
    );
    const rru = r.list.list_rru_per_page;
    if (rru) {
      const rruRow = (name: string, small: number, large: number) =>
        `| ${name} | ${small} | ${large} | ${round(large / small, 3)} ${mark(large / small <= GOALS.listRruRatio)} |`;
      lines.push(
        `| GET /verify/accounts page 0 size 100: read units | 1k | 100k | ratio (≤ ${GOALS.listRruRatio}) |`,
        '| --- | ---: | ---: | ---: |',
        rruRow('unfiltered', rru['1k'], rru['100k']),
        rruRow('verification_status=valid', rru['1k_filtered'], rru['100k_filtered']),
        '',
      );
    }
    const shards = r.list.shard_ratio;
    if (shards) {
      lines.push(
        `| 100k accounts, list shards | 1 shard ms | 8 shards ms | ratio (≤ ${GOALS.shardRatio}) |`,
        '| --- | ---: | ---: | ---: |',
        ...shards.rows.map(
          (row) =>
            `| ${row.name} | ${row.ms_1_shard} | ${row.ms_8_shards} | ${row.ratio} ${mark(row.ratio <= GOALS.shardRatio)} |`,
        ),
        '',
      );
    }
  }
  if (r.pipeline) {
    const p = r.pipeline;
    lines.push(
      `Pipeline: ${p.events} events, ${p.events_per_s}/s ${mark(p.events_per_s >= GOALS.pipelineEventsPerS)} (≥ ${GOALS.pipelineEventsPerS}), p50 ${p.p50_ms} ms, p99 ${p.p99_ms} ms ${mark(p.p99_ms <= GOALS.pipelineP99Ms)} (≤ ${GOALS.pipelineP99Ms})`,
      '',
    );
  }
  if (r.cost) {
    const c = r.cost;
    const usd = (value: number) => `$${round(value, 2)}`;
    lines.push(
      `| cost per million verifications (DynamoDB, Lambda, SQS, KMS, SES, API) | USD | goal |`,
      '| --- | ---: | ---: |',
      `| status, sustained: ${c.load} | ${usd(c.usd_per_million_verifications)} ${mark(c.usd_per_million_verifications <= GOALS.usdPerMillion)} | ≤ $${GOALS.usdPerMillion} |`,
      ...Object.entries(c.usd_per_million_by_type).map(
        ([type, value]) => `| ${type}, one at a time | ${usd(value)} | |`,
      ),
      '',
      `Sustained: ${c.wcu_per_verification} WRU, ${c.rcu_per_verification} RRU, ${c.invocations_per_verification} invocations per verification.`,
      '',
      `| tenant list shards | ceiling verifications/s (≥ ${GOALS.tenantCeilingPerS.toLocaleString('en')}) | limiting partition |`,
      '| ---: | ---: | --- |',
      ...Object.values(c.capacity).map(
        (m) =>
          `| ${m.tenant_shards} | ${m.tenant_ceiling_verifications_per_s.toLocaleString('en')}${m.tenant_shards === GOALS.tenantShards ? ` ${mark(m.tenant_ceiling_verifications_per_s >= GOALS.tenantCeilingPerS)}` : ''} | ${m.limiting_partition} |`,
      ),
      '',
    );
  }
  return lines.join('\n');
}
