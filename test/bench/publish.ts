import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '#lib/command-line';
import { REPO_ROOT } from '#lib/repo-root';
import { LATEST_RESULTS_JSON, PERFORMANCE_DOC, publishResults } from './latest-results';
import type { BenchResultsFile } from './results';
import { judgeResults } from './verdicts';

// `npm run bench:publish`: publishes the last run's `.bench/results.json` as
// `npm run bench -- --publish` does at the end of a run (./latest-results.ts): after a
// full run on a quiet machine, so the docs show every part measured side by side.

commandLine(
  `usage: npm run bench:publish
Publishes the last run's .bench/results.json (npm run bench) as the docs' latest results:
docs/bench/latest-results.json, docs/performance.md#latest-results and the figures docs:sync writes from them.`,
  {},
);
const source = join(REPO_ROOT, '.bench/results.json');
// Judged again by today's judge (./verdicts.ts), so the published verdicts follow the figures
// whatever judged them when the run wrote the file.
const {
  verdicts: _verdicts,
  summary: _summary,
  ...figures
} = JSON.parse(readFileSync(source, 'utf8')) as BenchResultsFile;
publishResults(judgeResults(figures));
console.error(`published ${source} to ${LATEST_RESULTS_JSON} and ${PERFORMANCE_DOC}#latest-results`);
