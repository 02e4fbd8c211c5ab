import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import {
  BLOCK_END,
  BLOCK_START,
  LATEST_RESULTS_JSON,
  latestResultsBlock,
  PERFORMANCE_DOC,
  renderLatestResults,
  withLatestResults,
} from '#test/bench/latest-results';
import type { BenchResultsFile } from '#test/bench/results';
import { judgeResults, meetsGoal, partsOf, summarize } from '#test/bench/verdicts';
import { cost, handler, list, run, screening, withoutCold } from './bench-fixture';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const published = JSON.parse(read(LATEST_RESULTS_JSON)) as BenchResultsFile;

describe('the published bench results (docs/performance.md#latest-results)', () => {
  it('are shown in docs/performance.md exactly as docs/bench/latest-results.json renders them', () => {
    // After a run, `npm run bench -- --publish` rewrites both, `npm run docs:sync` the block; edit neither by hand.
    expect(latestResultsBlock(read(PERFORMANCE_DOC)), 'run npm run docs:sync').toBe(renderLatestResults(published));
  });

  it('carry verdicts that agree with their own figures and goals, counted in the summary', () => {
    const wrong = published.verdicts.filter((v) => v.meets !== meetsGoal(v.value, v.goal));
    expect(wrong).toEqual([]);
    expect(published.summary).toEqual(summarize(partsOf(published), published.verdicts));
  });
});

describe('the Latest results block', () => {
  it('says which parts ran and which did not, and shows each judged figure with its goal and verdict', () => {
    const block = renderLatestResults(
      judgeResults({
        run: { ...run, parts: ['lists', 'cost'] },
        list: list({
          shard_ratio: {
            ratio: 1.602,
            rows: [
              { name: 'unfiltered', ms_1_shard: 10, ms_8_shards: 16, ratio: 1.602, rru_1_shard: 5, rru_8_shards: 6 },
              { name: 'filtered', ms_1_shard: 10, ms_8_shards: 11.7, ratio: 1.172, rru_1_shard: 5, rru_8_shards: 6 },
            ],
          },
        }),
        cost: cost(),
      }),
    );

    expect(block.split('\n')).toEqual([
      'Run of 2026-11-27 at commit `abc1234`, Node.js 24.21.0, 2 cores; parts run: `lists`, `cost`.',
      'Not run: `bundles`, `overhead`, `pipeline`, `screening`; no figure here judges their goals.',
      '',
      '4 of 5 judged figures meet their goals.',
      '',
      '| measure | result | goal |',
      '| --- | --- | --- |',
      '| list page, 100k records ÷ 1k | 1.1 ✓ | ≤ 1.5 |',
      '| list page 0 at 100k, 8 list shards ÷ 1 | 1.172–1.602 ✗ (1 of 2 over: unfiltered) | ≤ 1.5 |',
      '| cost per million sustained `status` verifications: 300 status verifications offered at 50/s | $9.85 ✓; 11.1 WRU, 2.92 RRU, 1.43 invocations per verification | ≤ $10 |',
      '| tenant ceiling, verifications/s with 8 list shards | 3,333 ✓; set by `gsi1 T#<tenant>#VA#pending#<n>` | ≥ 1,000 |',
    ]);
  });

  it("shows each sharded page's reads alone beside its ratio, when the run measured them", () => {
    const block = renderLatestResults(
      judgeResults({
        run: { ...run, parts: ['lists'] },
        list: list({
          shard_ratio: {
            ratio: 1.86,
            rows: [
              {
                name: 'unfiltered',
                ms_1_shard: 43.5,
                ms_8_shards: 81.1,
                ratio: 1.86,
                rru_1_shard: 5,
                rru_8_shards: 6,
                floor_ms_1_shard: 30.6,
                floor_ms_8_shards: 60.2,
                floor_ratio: 1.968,
                reads_1_shard: { QueryCommand: 5, BatchGetCommand: 1 },
                reads_8_shards: { QueryCommand: 40, BatchGetCommand: 1 },
              },
            ],
          },
        }),
      }),
    );

    expect(block).toContain(
      '| list page 0 at 100k, 8 list shards ÷ 1 | 1.86 ✗; the same reads alone, with a bare client: 1.968 (40 Queries against 5) | ≤ 1.5 |',
    );
  });

  it("shows the pipeline's share of the machine's cores beside its p99, and its table calls' alone, when the run measured them", () => {
    const block = renderLatestResults(
      judgeResults({
        run: { ...run, parts: ['pipeline'] },
        pipeline: {
          events: 2000,
          events_per_s: 93.7,
          p50_ms: 5869,
          p99_ms: 7946,
          machine_cpu_share: 0.94,
          floor: { node_cpu_ms_per_event: 4.51, jvm_cpu_ms_per_event: 6.12, cores_share_at_offered: 0.58 },
        },
      }),
    );

    expect(block).toContain(
      "| local pipeline p99 ms, write to the receiver’s 2xx | 7,946 ✗; p50 5869 ms; 0.94 of the machine's cores (this process and DynamoDB Local's JVM); the same table calls alone, with a bare client: 0.58 of the cores at the offered rate | ≤ 2,000 |",
    );
  });

  it('shows the screening figures, which judge no goal, below the summary when the screening part ran', () => {
    const block = renderLatestResults(judgeResults({ run: { ...run, parts: ['screening'] }, screening: screening() }));

    expect(block.split('\n').slice(-2)).toEqual([
      '',
      'Screening (figures to read, no goal; what they cost: [api.md](api.md#screening)): 4,699 listed persons, 11,055 names, indexed in 366.6 ms; one screening 5.34 ms median and 15.19 ms p99, 1 read unit warm, 2,478 read units per cold build; a list change over 4,000 persons 1.4 s and 2,101.5 read units (525,375 per million persons); the daily re-screen 23.2 s (5,804 s per million persons).',
    ]);
  });

  it('adds the kept floors, and each function over its own, when the run measured them', () => {
    const kept = {
      name: 'BenchKeptFloorMetrics',
      extras: ['metrics'],
      bundle_bytes: 315_067,
      bundle_ratio: 1.522,
      init_ms: 80,
      init_ratio: 1.2,
      rss_mb: 120,
      rss_ratio: 1.03,
      cold_ms: 200,
      cold_ratio: 1.25,
      cold_calls: { GetItem: 1, STS: 1 },
    };
    const block = renderLatestResults(
      judgeResults({
        run: { ...run, parts: ['bundles'] },
        floor: { bundle_bytes: 207_057, init_ms: 57.8, rss_mb: 116.7, cold_ms: 160, kept: [kept] },
        handlers: [
          handler('GetPerson', {
            kept_floor: 'BenchKeptFloorMetrics',
            over_kept: { bundle_ratio: 1.059, init_ratio: 0.98, rss_ratio: 1.01, cold_ratio: 1.04 },
            cold_calls: { GetItem: 2, STS: 1 },
          }),
        ],
      }),
    );

    expect(block).toContain(
      '| BenchKeptFloorMetrics | metrics | 315,067 | 1.522 | 1.200 | 1.030 | 1.250 | GetItem 1, STS 1 |',
    );
    expect(block).toContain('| GetPerson | BenchKeptFloorMetrics | 1.059 | 0.980 | 1.010 | 1.040 | GetItem 2, STS 1 |');
  });

  it('adds the per-function table when the bundles part ran, and says when the machine was busy', () => {
    const block = renderLatestResults(
      judgeResults({
        run: { ...run, parts: ['bundles'], load: 3.5 },
        floor: { bundle_bytes: 207_057, init_ms: 57.8, rss_mb: 116.7, cold_ms: 160 },
        handlers: [handler('GetPerson', { bundle_ratio: 1.45 })],
      }),
    );

    expect(block).toContain('Not run: `overhead`, `lists`, `pipeline`, `cost`, `screening`');
    expect(block).toContain('| GetPerson | 300,000 | 1.45 ✗ | 70 | 1.1 ✓ | 120 | 1.2 ✓ | 180 | 1.1 ✓ |');
    expect(block).toContain("| cold request (init and first invocation) ÷ floor's (160 ms) | 1.1 ✓ | ≤ 1.2 |");
    expect(block).toContain('2 cores (load 3.5 as it started); parts run: `bundles`.\nA busy machine');
  });

  it('shows no cold request column or row for a run that did not measure them', () => {
    const block = renderLatestResults(
      judgeResults({
        run: { ...run, parts: ['bundles'] },
        floor: { bundle_bytes: 207_057, init_ms: 57.8, rss_mb: 116.7 },
        handlers: [withoutCold(handler('GetPerson'))],
      }),
    );

    expect(block.split('\n').at(-1)).toBe('| GetPerson | 300,000 | 1.2 ✓ | 70 | 1.1 ✓ | 120 | 1.2 ✓ |');
    expect(block).not.toContain('cold request');
  });

  it('is replaced between its markers only, and a page without them is refused with the way out', () => {
    const page = `# Performance\n\n${BLOCK_START}\n\nold table\n\n${BLOCK_END}\n\n## Next\n`;

    expect(withLatestResults(page, 'new table')).toBe(
      `# Performance\n\n${BLOCK_START}\n\nnew table\n\n${BLOCK_END}\n\n## Next\n`,
    );
    expect(() => withLatestResults('# Performance\n', 'new table')).toThrow(/put the two markers back/);
  });
});
