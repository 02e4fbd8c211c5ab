import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { commandLine, usageError } from '#lib/command-line';
import { REPO_ROOT } from '#lib/repo-root';
import type { BundleFigures } from './bundles';
import { LATEST_RESULTS_JSON, PERFORMANCE_DOC, publishResults } from './latest-results';
import type { PipelineMeasurement } from './pipeline';
import { report } from './report';
import { BENCH_PARTS, type BenchPart, type CostResults, type ListFigures } from './results';
import type { ScreeningFigures } from './screening';
import { round } from './stats';
import { judgeResults } from './verdicts';

/**
 * `npm run bench [-- --only bundles,overhead,lists,pipeline,cost,screening] [--reuse <parts>] [--publish]`:
 * every benchmark of the service in one run, each part in a process of its own with a
 * DynamoDB Local of its own (./part.ts: one that earlier parts filled slows the next). Prints a table (stdout) and writes `.bench/results.json`
 * (git-ignored) so versions can be compared: the figures, and each goal's figure with its
 * verdict (./verdicts.ts). `--publish` then makes
 * them the docs' latest (./latest-results.ts). Progress goes to stderr. Not part of `npm test`: timings
 * judge nothing there (docs/performance.md).
 */
const USAGE = `usage: npm run bench [-- --only <parts>] [--reuse <parts>] [--publish]
  --only <parts>   measure only these parts, comma-separated (${BENCH_PARTS.join(', ')})
  --reuse <parts>  take these parts' figures from the last run's .bench/work/<part>.json
  --publish        make the results the docs' latest (docs/performance.md#latest-results); on a quiet machine
Writes .bench/results.json; progress on stderr. About 30 minutes for every part.`;
const values = commandLine(USAGE, {
  only: { type: 'string' },
  publish: { type: 'boolean' },
  reuse: { type: 'string' },
});
const only = new Set((values.only?.split(',') ?? BENCH_PARTS) as BenchPart[]);
/**
 * `--reuse bundles,…`: those parts' figures as the previous run's process left them in
 * `.bench/work/<part>.json`, not measured again (a run that stopped at a later part keeps
 * what it measured); the results say which were reused (`run.reused`).
 */
const reuse = new Set((values.reuse?.split(',') ?? []) as BenchPart[]);
for (const part of [...only, ...reuse]) {
  if (!BENCH_PARTS.includes(part)) {
    usageError(USAGE, `unknown part "${part}"; parts: ${BENCH_PARTS.join(', ')}`);
  }
}
const BENCH_DIR = join(REPO_ROOT, '.bench');
const log = (message: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);

/**
 * One part in a process of its own (./part.ts), so it measures only itself; its figures
 * come back through a file, its progress on stderr as it goes.
 */
async function measure<T>(part: BenchPart): Promise<T | undefined> {
  if (!only.has(part)) return undefined;
  const resultsFile = join(BENCH_DIR, 'work', `${part}.json`);
  if (reuse.has(part)) {
    log(`[${part}] reused: the figures of ${resultsFile}, written ${statSync(resultsFile).mtime.toISOString()}`);
    return JSON.parse(readFileSync(resultsFile, 'utf8')) as T;
  }
  log(`[${part}] started`);
  mkdirSync(dirname(resultsFile), { recursive: true });
  rmSync(resultsFile, { force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/bench/part.ts'), part, resultsFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`bench part ${part} ended with ${signal ?? `exit code ${code}`}`);
  return JSON.parse(readFileSync(resultsFile, 'utf8')) as T;
}

const at = new Date().toISOString();
const load = round(loadavg()[0] ?? 0, 1);
const bundles = await measure<BundleFigures>('bundles');
const overhead = await measure<Record<string, number>>('overhead');
const list = await measure<ListFigures>('lists');
const pipeline = await measure<PipelineMeasurement>('pipeline');
const cost = await measure<CostResults>('cost');
const screening = await measure<ScreeningFigures>('screening');
const results = judgeResults({
  run: {
    at,
    commit: gitCommit(),
    node: process.versions.node,
    cpus: availableParallelism(),
    parts: BENCH_PARTS.filter((part) => only.has(part)),
    ...(reuse.size > 0 && { reused: BENCH_PARTS.filter((part) => only.has(part) && reuse.has(part)) }),
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
