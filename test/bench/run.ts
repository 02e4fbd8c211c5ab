import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { silentLog } from '#lib/local/log';
import { REPO_ROOT } from '#lib/repo-root';
import { measureBundles } from './bundles';
import type { BenchContext } from './context';
import { measureCost } from './cost';
import { LATEST_RESULTS_JSON, PERFORMANCE_DOC, publishResults } from './latest-results';
import { useBenchListShards } from './list-shards';
import { measureLists } from './lists';
import { measureOverhead } from './overhead';
import { measurePipeline } from './pipeline';
import { report } from './report';
import { BENCH_PARTS, type BenchPart } from './results';
import { measureScreening } from './screening';
import { round } from './stats';
import { judgeResults } from './verdicts';

/**
 * `npm run bench [-- --only bundles,overhead,lists,pipeline,cost,screening] [--publish]`:
 * every benchmark of the service in one run, each part on a DynamoDB Local of its own (one
 * that earlier parts filled slows the next: DynamoDB Local keeps every table's stream
 * records in one store). Prints a table (stdout) and writes `.bench/results.json`
 * (git-ignored) so versions can be compared: the figures, and each goal's figure with its
 * verdict (./verdicts.ts). `--publish` then makes
 * them the docs' latest (./latest-results.ts). Progress goes to stderr. Not part of `npm test`: timings
 * judge nothing there (docs/performance.md).
 */
const { values } = parseArgs({ options: { only: { type: 'string' }, publish: { type: 'boolean' } } });
const only = new Set((values.only?.split(',') ?? BENCH_PARTS) as BenchPart[]);
for (const part of only) {
  if (!BENCH_PARTS.includes(part)) {
    console.error(`unknown part "${part}"; parts: ${BENCH_PARTS.join(', ')}`);
    process.exit(2);
  }
}
useBenchListShards();

const BENCH_DIR = join(REPO_ROOT, '.bench');
const log = (message: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);

async function measure<T>(part: BenchPart, fn: (context: BenchContext) => Promise<T>): Promise<T | undefined> {
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
const load = round(loadavg()[0] ?? 0, 1);
const bundles = await measure('bundles', measureBundles);
const overhead = await measure('overhead', measureOverhead);
const list = await measure('lists', measureLists);
const pipeline = await measure('pipeline', measurePipeline);
const cost = await measure('cost', measureCost);
const screening = await measure('screening', measureScreening);
const results = judgeResults({
  run: {
    at,
    commit: gitCommit(),
    node: process.versions.node,
    cpus: availableParallelism(),
    parts: BENCH_PARTS.filter((part) => only.has(part)),
    load,
  },
  ...(bundles && { floor: bundles.floor, handlers: bundles.handlers }),
  overhead_ratio: overhead,
  list,
  pipeline,
  // Issue 12 reports the list's read units per page with the cost figures.
  cost: cost && list?.list_rru_per_page ? { ...cost, list_rru_per_page: list.list_rru_per_page } : cost,
  screening,
});

mkdirSync(BENCH_DIR, { recursive: true });
writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(report(results));
log(
  `results written to .bench/results.json: ${results.summary.passed} figures meet their goals, ${results.summary.failed} miss`,
);
if (values.publish) {
  publishResults(results);
  log(`published to ${LATEST_RESULTS_JSON} and ${PERFORMANCE_DOC}#latest-results`);
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
