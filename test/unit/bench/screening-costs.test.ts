import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { LATEST_RESULTS_JSON } from '#test/bench/latest-results';
import type { BenchResultsFile } from '#test/bench/results';
import {
  renderScreeningCosts,
  SCREENING_COSTS_BLOCK,
  screeningCostsBlock,
  withScreeningCosts,
} from '#test/bench/screening-costs';
import { judgeResults } from '#test/bench/verdicts';
import { run, screening } from './bench-fixture';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

describe('what screening costs (docs/api.md#screening)', () => {
  it('is shown in docs/api.md exactly as docs/bench/latest-results.json renders it', () => {
    // `npm run docs:sync` (and `npm run bench -- --publish`) writes it; edit it not by hand.
    const published = JSON.parse(read(LATEST_RESULTS_JSON)) as BenchResultsFile;
    expect(screeningCostsBlock(read(SCREENING_COSTS_BLOCK.page)), 'run npm run docs:sync').toBe(
      renderScreeningCosts(published),
    );
  });

  it("states the run's timings as measured, and prices its read units and Lambda seconds at the cost model's prices", () => {
    const block = renderScreeningCosts(judgeResults({ run, screening: screening() })).split('\n');

    expect(block[0]).toBe(
      "What screening costs, as measured by the published bench run (2026-11-27, 2 cores; [performance.md](performance.md#latest-results)), with DynamoDB on demand and Lambda arm64 512 MB at us-east-1's prices of 2026-11-23:",
    );
    expect(block.slice(2)).toEqual([
      '| | reads | time |',
      '|---|---|---|',
      "| one screening (identification) | 1 read unit: the lists' version (a consistent GetItem); the lists themselves are held in memory, rebuilt (2,478 read units) only after a change | 5.34 ms median, 15.19 ms p99 of matching at full OFAC size (4,699 listed persons; `npm run bench -- --only screening`) |",
      // 525,375 RRU × $0.125 per million; 1,368.4 ms for 4,000 persons is 342 s per million, × 0.5 GB × $0.0000133334.
      "| one list change, 1 million persons | 525,375 read units (the screening index's keys and each person once, eventually consistent; measured on 4,000 persons and scaled), about $0.07; Lambda 342 s, under $0.01 | 8 shards walked in parallel, 2,000 persons a message: about 43 s |",
      // 5,804 s × 0.5 GB × $0.0000133334 = $0.039; 5,804 s ÷ 8 shards = 12 minutes.
      '| the daily re-screen, 1 million persons | the same reads as a change, about $0.07 | each person scored against the whole lists: 5,804 Lambda seconds, about $0.04; 8 shards in parallel: about 12 minutes |',
    ]);
  });

  it('says when the machine was busy, and when the published run did not measure screening', () => {
    const busy = renderScreeningCosts(judgeResults({ run: { ...run, load: 3.5 }, screening: screening() }));
    expect(busy).toContain('(2026-11-27, 2 cores, a busy machine: its times read high;');

    expect(renderScreeningCosts(judgeResults({ run: { ...run, parts: ['lists'] } }))).toBe(
      'What screening costs is measured by `npm run bench` (its `screening` part); the published bench run (2026-11-27, 2 cores; [performance.md](performance.md#latest-results)) did not measure it.',
    );
  });

  it('is replaced between its markers only', () => {
    const { start, end } = SCREENING_COSTS_BLOCK;
    const page = `### Screening\n\n${start}\n\nold table\n\n${end}\n\nA change's cost follows the persons.\n`;

    const written = withScreeningCosts(page, judgeResults({ run, screening: screening() }));

    expect(written.startsWith(`### Screening\n\n${start}\n\nWhat screening costs, as measured by`)).toBe(true);
    expect(written.endsWith(`about 12 minutes |\n\n${end}\n\nA change's cost follows the persons.\n`)).toBe(true);
  });
});
