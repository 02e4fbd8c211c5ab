import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { silentLog } from '#lib/local/log';
import { REPO_ROOT } from '#lib/repo-root';
import { measureBundles } from './bundles';
import type { BenchContext, BenchPart as MeasurePart } from './context';
import { measureCost } from './cost';
import { useBenchListShards } from './list-shards';
import { measureLists } from './lists';
import { measureOverhead } from './overhead';
import { measurePipeline } from './pipeline';
import { BENCH_PARTS, type BenchPart } from './results';
import { measureScreening } from './screening';

// One part of `npm run bench` in a process of its own (test/bench/run.ts starts one per
// part): `node --import tsx test/bench/part.ts <part> <results file>`. The part gets its
// own DynamoDB Local, a fresh `.bench/work/<part>` and a heap no earlier part has filled,
// so it measures only itself: in one process, the pipeline ran after the lists part had
// loaded 200k items (its DynamoDB Local's stream store, and this process's heap), and its
// p99 more than doubled. Progress goes to stderr; the figures to the results file as JSON.

const MEASURE: Record<BenchPart, MeasurePart<unknown>> = {
  bundles: measureBundles,
  overhead: measureOverhead,
  lists: measureLists,
  pipeline: measurePipeline,
  cost: measureCost,
  screening: measureScreening,
};

const [part, resultsFile] = process.argv.slice(2) as [BenchPart, string];
if (!BENCH_PARTS.includes(part) || !resultsFile) {
  console.error(`usage: part.ts <${BENCH_PARTS.join('|')}> <results file>`);
  process.exit(2);
}
useBenchListShards();

const log = (message: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} [${part}] ${message}\n`);
const started = performance.now();
const workDir = join(REPO_ROOT, '.bench', 'work', part);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
const dynamo = await startDynamoDbLocal({ log: silentLog });
try {
  const result = await MEASURE[part]({
    dynamoEndpoint: dynamo.endpoint,
    dynamoPid: dynamo.pid,
    workDir,
    log,
  } satisfies BenchContext);
  writeFileSync(resultsFile, JSON.stringify(result));
  log(`done in ${Math.round((performance.now() - started) / 1000)} s`);
} finally {
  await dynamo.stop();
}
