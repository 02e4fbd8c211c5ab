import { describe, expect, it } from 'vitest';
import { GOALS } from '#test/bench/results';
import { judgeResults, meetsGoal, verdictsOf } from '#test/bench/verdicts';
import { cost, handler, list, pipeline, run, withoutCold } from './bench-fixture';

const floor = { bundle_bytes: 207_057, init_ms: 57.8, rss_mb: 116.7, cold_ms: 160 };

describe('the bench verdicts', () => {
  it('meets an at-most goal with a figure exactly at the limit, and misses it just over', () => {
    const verdicts = verdictsOf({
      floor,
      handlers: [
        handler('AtTheLimit', { bundle_ratio: GOALS.bundleRatio }),
        handler('JustOver', { bundle_ratio: GOALS.bundleRatio + 0.001 }),
      ],
    }).filter((v) => v.measure === 'bundle_ratio');

    expect(verdicts).toEqual([
      {
        part: 'bundles',
        measure: 'bundle_ratio',
        subject: 'AtTheLimit',
        value: GOALS.bundleRatio,
        goal: { op: '<=', limit: GOALS.bundleRatio },
        meets: true,
      },
      {
        part: 'bundles',
        measure: 'bundle_ratio',
        subject: 'JustOver',
        value: GOALS.bundleRatio + 0.001,
        goal: { op: '<=', limit: GOALS.bundleRatio },
        meets: false,
      },
    ]);
  });

  it('meets an at-least goal with a figure exactly at the limit, and misses it just under', () => {
    const eventsPerS = (value: number) =>
      verdictsOf({ pipeline: pipeline({ events_per_s: value }) }).find((v) => v.measure === 'events_per_s');
    const ceiling = (value: number) =>
      verdictsOf({ cost: cost({ tenant_ceiling_verifications_per_s: value }) }).find(
        (v) => v.measure === 'tenant_ceiling_verifications_per_s',
      );

    expect(eventsPerS(GOALS.pipelineEventsPerS)).toMatchObject({ goal: { op: '>=', limit: 100 }, meets: true });
    expect(eventsPerS(GOALS.pipelineEventsPerS - 0.1)?.meets).toBe(false);
    expect(eventsPerS(GOALS.pipelineEventsPerS + 50)?.meets).toBe(true);
    expect(ceiling(GOALS.tenantCeilingPerS)).toMatchObject({ subject: '8 list shards', meets: true });
    expect(ceiling(GOALS.tenantCeilingPerS - 1)?.meets).toBe(false);
    expect(meetsGoal(1.5, { op: '<=', limit: 1.5 })).toBe(true);
    expect(meetsGoal(1.5, { op: '>=', limit: 1.5 })).toBe(true);
  });

  it('judges every figure the report marks: bundle, init, RSS and cold request ratios, overhead, lists, shards, pipeline, cost', () => {
    const verdicts = verdictsOf({
      floor,
      handlers: [handler('GetPerson')],
      overhead_ratio: { GetPerson: 1.3 },
      list: list({
        list_rru_per_page: { '1k': 55.5, '100k': 56.5, '1k_filtered': 50, '100k_filtered': 80 },
        shard_ratio: {
          ratio: 1.602,
          rows: [
            { name: 'unfiltered', ms_1_shard: 10, ms_8_shards: 16.02, ratio: 1.602, rru_1_shard: 55, rru_8_shards: 60 },
          ],
        },
        sequential_ratio: 1.206,
        cursor_ratio: 1.115,
      }),
      pipeline: pipeline({ p99_ms: 2_420 }),
      cost: cost(),
    });

    expect(verdicts.map((v) => [v.measure, v.subject, v.value, v.meets])).toEqual([
      ['bundle_ratio', 'GetPerson', 1.2, true],
      ['init_ratio', 'GetPerson', 1.1, true],
      ['rss_ratio', 'GetPerson', 1.2, true],
      ['cold_ratio', 'GetPerson', 1.1, true],
      ['overhead_ratio', 'GetPerson', 1.3, false],
      ['list_ratio', 'GET /persons page 0 size 100', 1.1, true],
      ['list_rru_ratio', 'unfiltered', 1.018, true],
      ['list_rru_ratio', 'verification_status=valid', 1.6, false],
      ['shard_ratio', 'unfiltered', 1.602, false],
      ['sequential_ratio', undefined, 1.206, true],
      ['cursor_ratio', undefined, 1.115, true],
      ['events_per_s', undefined, 109.5, true],
      ['p99_ms', undefined, 2_420, false],
      ['usd_per_million_verifications', undefined, 9.85, true],
      ['tenant_ceiling_verifications_per_s', '8 list shards', 3_333, true],
    ]);
  });

  it('judges the 100k ÷ 1k ratio on page 0 rows only: a cold page 50 is for reference, page 50 is judged as clients reach it', () => {
    const verdicts = verdictsOf({
      list: list({
        rows: [
          { name: 'GET /persons page 0 size 100', ms_1k: 10, ms_100k: 11, ratio: 1.1 },
          { name: 'GET /persons page 50 size 100', ms_1k: 35.5, ms_100k: 290, ratio: 8.17 },
        ],
        sequential_ratio: 1.2,
        cursor_ratio: 1.1,
      }),
    });

    expect(verdicts.filter((v) => v.measure === 'list_ratio').map((v) => v.subject)).toEqual([
      'GET /persons page 0 size 100',
    ]);
    expect(verdicts.every((v) => v.meets)).toBe(true);
  });

  it('yields no verdicts for parts that did not run, and judges no peak RSS a run skipped', () => {
    expect(verdictsOf({})).toEqual([]);
    expect(verdictsOf({ run })).toEqual([]);
    const withoutRss = verdictsOf({
      floor: { ...floor, rss_mb: 0 },
      handlers: [handler('GetPerson', { rss_ratio: 0 })],
    });
    expect(withoutRss.map((v) => v.measure)).toEqual(['bundle_ratio', 'init_ratio', 'cold_ratio']);
  });

  it('judges a cold request against its goal, at most 1.2 times the floor’s, and none a run did not measure', () => {
    const cold = (ratio: number) =>
      verdictsOf({ floor, handlers: [handler('DecideScreeningHit', { cold_ratio: ratio })] }).find(
        (v) => v.measure === 'cold_ratio',
      );
    expect(cold(GOALS.coldRatio)).toMatchObject({
      part: 'bundles',
      subject: 'DecideScreeningHit',
      goal: { op: '<=', limit: 1.2 },
      meets: true,
    });
    expect(cold(GOALS.coldRatio + 0.001)?.meets).toBe(false);

    const withoutColdPhase = verdictsOf({
      floor: { bundle_bytes: floor.bundle_bytes, init_ms: floor.init_ms, rss_mb: floor.rss_mb },
      handlers: [withoutCold(handler('GetPerson')), withoutCold(handler('ListsRefresh'))],
    });
    expect(withoutColdPhase.map((v) => v.measure)).not.toContain('cold_ratio');
    expect(withoutColdPhase).toHaveLength(6);
  });

  it('counts passed and failed figures in all and by each part that ran, judged or not', () => {
    const file = judgeResults({
      run: { ...run, parts: ['pipeline', 'cost', 'screening'] },
      pipeline: pipeline({ p99_ms: 2_001 }),
      cost: cost(),
    });

    expect(file.summary).toEqual({
      passed: 3,
      failed: 1,
      parts: {
        pipeline: { passed: 1, failed: 1 },
        cost: { passed: 2, failed: 0 },
        screening: { passed: 0, failed: 0 },
      },
    });
    expect(file.verdicts.every((v) => v.part === 'pipeline' || v.part === 'cost')).toBe(true);
  });

  it('counts the parts present when a results file written before issue 32 names none', () => {
    expect(judgeResults({ run, cost: cost() }).summary.parts).toEqual({ cost: { passed: 2, failed: 0 } });
  });
});
