import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '#lib/repo-root';
import { LATEST_RESULTS_JSON, PERFORMANCE_DOC, publishResults } from './latest-results';
import type { BenchResultsFile } from './results';

// `npm run bench:publish`: publishes the last run's `.bench/results.json` as
// `npm run bench -- --publish` does at the end of a run (./latest-results.ts): after a
// full run on a quiet machine, so the docs show every part measured side by side.

const source = join(REPO_ROOT, '.bench/results.json');
const results = JSON.parse(readFileSync(source, 'utf8')) as BenchResultsFile;
if (!Array.isArray(results.verdicts) || !results.summary) {
  console.error(`${source} has no verdicts (written before issue 32): run \`npm run bench -- --publish\` instead`);
  process.exit(1);
}
publishResults(results);
console.error(`published ${source} to ${LATEST_RESULTS_JSON} and ${PERFORMANCE_DOC}#latest-results`);
