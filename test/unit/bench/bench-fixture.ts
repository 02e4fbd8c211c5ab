import type { BenchResults, CostResults, HandlerFigures, ListFigures, PipelineFigures } from '#test/bench/results';
import type { ScreeningFigures } from '#test/bench/screening';

// Figures shaped as `npm run bench` writes them, each test overriding the few it judges.

export const handler = (name: string, ratios: Partial<HandlerFigures> = {}): HandlerFigures => ({
  name,
  bundle_bytes: 300_000,
  init_ms: 70,
  init_ratio: 1.1,
  bundle_ratio: 1.2,
  rss_mb: 120,
  rss_ratio: 1.2,
  cold_ms: 180,
  cold_ratio: 1.1,
  ...ratios,
});

/** A function's figures from a run that skipped the cold requests (or one before issue 32). */
export const withoutCold = ({ cold_ms: _ms, cold_ratio: _ratio, ...figures }: HandlerFigures): HandlerFigures =>
  figures;

export const pipeline = (figures: Partial<PipelineFigures> = {}): PipelineFigures => ({
  events: 2_000,
  events_per_s: 109.5,
  p50_ms: 400,
  p99_ms: 1_200,
  ...figures,
});

export const list = (figures: Partial<ListFigures> = {}): ListFigures => ({
  ms_1k: 10,
  ms_100k: 11,
  ratio: 1.1,
  rows: [{ name: 'GET /persons page 0 size 100', ms_1k: 10, ms_100k: 11, ratio: 1.1 }],
  ...figures,
});

export const cost = (figures: Partial<CostResults> = {}): CostResults => ({
  usd_per_million_verifications: 9.85,
  wcu_per_verification: 11.1,
  rcu_per_verification: 2.92,
  invocations_per_verification: 1.43,
  breakdown: {},
  load: '300 status verifications offered at 50/s',
  usd_per_million_one_at_a_time: 14.2,
  breakdown_one_at_a_time: {},
  usd_per_million_by_type: { status: 14.2, status_ownership: 15.1, control_ownership: 18.3 },
  tenant_ceiling_verifications_per_s: 3_333,
  capacity: {
    '8': {
      tenant_shards: 8,
      verifications: 300,
      tenant_ceiling_verifications_per_s: 3_333,
      limiting_partition: 'gsi1 T#<tenant>#VA#pending#<n>',
      top_partitions: [],
      wru_by_index: {},
    },
  },
  ...figures,
});

export const run: BenchResults['run'] = {
  at: '2026-11-27T04:00:00.000Z',
  commit: 'abc1234',
  node: '24.21.0',
  cpus: 2,
};

export const screening = (figures: Partial<ScreeningFigures> = {}): ScreeningFigures => ({
  listings: 4_699,
  names: 11_055,
  build_ms: 366.6,
  screen_median_ms: 5.34,
  screen_p99_ms: 15.19,
  screen_rru: 1,
  build_rru: 2_478,
  walk: {
    persons: 4_000,
    change_ms: 1_368.4,
    change_rru: 2_101.5,
    change_rru_per_million: 525_375,
    daily_ms: 23_216.5,
    daily_seconds_per_million: 5_804,
  },
  ...figures,
});
