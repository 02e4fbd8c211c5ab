import type { ScreeningFigures } from './screening';

/** The parts of `npm run bench`, in the order a run measures them (`--only` picks some). */
export const BENCH_PARTS = ['bundles', 'overhead', 'lists', 'pipeline', 'cost', 'screening'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

/**
 * The shape of `.bench/results.json`, so runs of different versions can be compared. Every
 * figure that judges is a ratio or a count measured side by side in one run (these
 * machines are noisy); absolute times are there for reading.
 */
export interface BenchResults {
  /**
   * When and where it ran, for reading two files side by side. Since issue 32 also `parts`,
   * those it ran, and `load`, the machine's 1-minute load average as it started (a busy
   * machine's timings mean less).
   */
  readonly run: {
    readonly at: string;
    readonly commit: string;
    readonly node: string;
    readonly cpus: number;
    readonly parts?: readonly BenchPart[];
    readonly load?: number;
    /** Parts whose figures were taken from the previous run's process (`--reuse`), not measured in this one. */
    readonly reused?: readonly BenchPart[];
  };
  /**
   * The bare handler: one GetCommand with @aws-sdk/lib-dynamodb, bundled as the stack bundles;
   * `rss_mb` its peak RSS measured as every function's (0 when the RSS phase was skipped);
   * `cold_ms` its import and first GetItem in a fresh process (absent when the cold
   * requests were skipped, and in files before issue 32).
   */
  readonly floor: {
    readonly bundle_bytes: number;
    readonly init_ms: number;
    readonly rss_mb: number;
    readonly cold_ms?: number;
    /** The kept floors, measured in the same run (absent before issue 32). */
    readonly kept?: readonly KeptFloorFigures[];
  };
  readonly handlers: readonly HandlerFigures[];
  /** Per HTTP handler: median latency / median of the bare DynamoDB calls it makes. */
  readonly overhead_ratio: Readonly<Record<string, number>>;
  readonly list: ListFigures;
  readonly pipeline: PipelineFigures;
  readonly cost: CostResults;
  /** The screening matcher at full list size (test/bench/screening.ts). */
  readonly screening: ScreeningFigures;
}

export interface HandlerFigures {
  /** The route or consumer id (`CreateVerifyAccount`, `WebhookSender`, …). */
  readonly name: string;
  readonly bundle_bytes: number;
  /** Median module initialisation of ≥ 15 fresh processes, minus a bare `node` start. */
  readonly init_ms: number;
  /** init_ms / the floor's init_ms, same run. */
  readonly init_ratio: number;
  /** bundle_bytes / the floor's bundle_bytes. */
  readonly bundle_ratio: number;
  /** Peak RSS of a process that imports the bundle and serves 1,000 realistic invocations. */
  readonly rss_mb: number;
  /** rss_mb / the floor's rss_mb, measured the same way in the same run (0 without an RSS phase). */
  readonly rss_ratio: number;
  /**
   * Median, over ≥ 15 fresh processes with the function's Lambda environment, of its import
   * plus its first invocation served against DynamoDB Local (its tenant's AssumeRole
   * included): a cold start's latency. Absent when the run skipped the cold requests.
   */
  readonly cold_ms?: number;
  /** The median of each process's cold_ms over the floor's processes beside it, same run. */
  readonly cold_ratio?: number;
  /**
   * The requests its first invocation sent, by operation or service (`GetItem`, `STS`), as
   * most of its cold processes sent them: what its cold request waits on besides its code.
   */
  readonly cold_calls?: Readonly<Record<string, number>>;
  /**
   * The kept floor this function is compared with (issue 32): the one whose clients it
   * bundles (`floor.kept`), and each of its ratios over that kept floor's, i.e. what its
   * own code costs beyond the packages kept by decision. Absent in files before issue 32.
   */
  readonly kept_floor?: string;
  readonly over_kept?: OverKept;
}

/** A function's ratio to the floor ÷ its kept floor's ratio to the floor, per measure. */
export interface OverKept {
  readonly bundle_ratio: number;
  readonly init_ratio: number;
  readonly rss_ratio: number;
  readonly cold_ratio?: number;
}

/**
 * A kept floor (test/bench/floor/kept.ts): the floor plus middy, Powertools' Logger and
 * Metrics, zod/mini and STS's AssumeRole, with the KMS or SQS client where `extras` says;
 * measured as every function is, its ratios to the floor in the same run.
 */
export interface KeptFloorFigures {
  readonly name: string;
  readonly extras: readonly string[];
  readonly bundle_bytes: number;
  readonly bundle_ratio: number;
  readonly init_ms: number;
  readonly init_ratio: number;
  readonly rss_mb: number;
  readonly rss_ratio: number;
  readonly cold_ms?: number;
  readonly cold_ratio?: number;
  readonly cold_calls?: Readonly<Record<string, number>>;
}

export interface ListFigures {
  /** The median of every measured row at 1k records (ms), for reading. */
  readonly ms_1k: number;
  readonly ms_100k: number;
  /** The worst case's ratio of medians, 100k / 1k. */
  readonly ratio: number;
  readonly rows: readonly ListRow[];
  /** Read units of page 0 (size 100) of `GET /verify/accounts`, unfiltered and `verification_status=valid`. */
  readonly list_rru_per_page?: ListRruPerPage;
  /** The 100k-record accounts tenant under 8 list shards against 1: page 0 latency. */
  readonly shard_ratio?: ShardRatio;
  /**
   * Page 50 (size 100) as clients reach it, ÷ page 0 of the same tenant (issue 21): after
   * pages 0…49 by number (`sequential`), and by following `Link` cursors from page 0
   * (`cursor`); the worst case at 100k of each, and `cold`, a lone `index=50`, for reference.
   */
  readonly sequential_ratio?: number;
  readonly cursor_ratio?: number;
  readonly cold_ratio?: number;
  readonly deep_rows?: readonly DeepPageRow[];
}

export interface DeepPageRow {
  /** e.g. `GET /persons page 50 size 100 status=verified`. */
  readonly name: string;
  readonly tenant: '1k' | '100k';
  /** Medians (ms): page 0, page 50 after pages 0…49, page 50 by cursor, page 50 alone (cold). */
  readonly ms_page_0: number;
  readonly ms_sequential: number;
  readonly ms_cursor: number;
  readonly ms_cold: number;
  readonly sequential_ratio: number;
  readonly cursor_ratio: number;
  readonly cold_ratio: number;
  /** Index items the timed page 50 evaluated, by each way (one extra run). */
  readonly scanned_sequential?: number;
  readonly scanned_cursor?: number;
  readonly scanned_cold?: number;
}

export interface ListRruPerPage {
  readonly '1k': number;
  readonly '100k': number;
  readonly '1k_filtered': number;
  readonly '100k_filtered': number;
}

export interface ShardRatio {
  /** The worst case's ratio of medians, 8 shards / 1 shard. */
  readonly ratio: number;
  readonly rows: readonly {
    readonly name: string;
    readonly ms_1_shard: number;
    readonly ms_8_shards: number;
    readonly ratio: number;
    readonly rru_1_shard: number;
    readonly rru_8_shards: number;
    /**
     * The page's floor (test/bench/bare-waves.ts): its read commands alone, sent in the
     * same waves with a bare client, interleaved with the pages (medians, ms), and its
     * ratio 8 / 1; the read commands each page sent, by kind. Absent before issue 32.
     */
    readonly floor_ms_1_shard?: number;
    readonly floor_ms_8_shards?: number;
    readonly floor_ratio?: number;
    readonly reads_1_shard?: Readonly<Record<string, number>>;
    readonly reads_8_shards?: Readonly<Record<string, number>>;
  }[];
}

export interface ListRow {
  /** e.g. `GET /verify/accounts page 50 size 100 status=valid`. */
  readonly name: string;
  readonly ms_1k: number;
  readonly ms_100k: number;
  readonly ratio: number;
  /** Read capacity units one page consumed (the handler's own reads), from DynamoDB Local's ConsumedCapacity. */
  readonly rru_1k?: number;
  readonly rru_100k?: number;
  /** Index items the page's queries evaluated (ScannedCount), filtered out or skipped ones included. */
  readonly scanned_1k?: number;
  readonly scanned_100k?: number;
}

export interface PipelineFigures {
  readonly events: number;
  readonly events_per_s: number;
  /** From the status change's write to the receiver's 2xx. */
  readonly p50_ms: number;
  readonly p99_ms: number;
  /** The bench process's and DynamoDB Local's CPU over the machine's cores while the events ran. */
  readonly machine_cpu_share?: number;
  /** The same table calls alone, with a bare client (test/bench/pipeline-floor.ts). */
  readonly floor?: {
    readonly node_cpu_ms_per_event: number;
    readonly jvm_cpu_ms_per_event?: number;
    readonly cores_share_at_offered?: number;
  };
}

/** The bill of one verification under one load. */
export interface CostFigures {
  /** The goal's figure: DynamoDB, Lambda (requests and compute), SQS, KMS, SES and API requests. */
  readonly usd_per_million_verifications: number;
  /** With CloudWatch Logs ingestion, X-Ray traces and data transfer out as well. */
  readonly usd_per_million_all_in?: number;
  readonly wcu_per_verification: number;
  readonly rcu_per_verification: number;
  readonly invocations_per_verification: number;
  /** Every counted request of one verification, by service and kind, for reading. */
  readonly breakdown: Readonly<Record<string, number>>;
}

/**
 * The cost part: `status` verifications under a sustained load (the goal's figure), the
 * same one at a time, each type one at a time, and the per-tenant ceiling the sustained
 * run's writes give.
 */
export interface CostResults extends CostFigures {
  /** From the lists part (`list.list_rru_per_page`), when both ran. */
  readonly list_rru_per_page?: ListRruPerPage;
  /** The load `usd_per_million_verifications` was measured under, e.g. `300 status verifications offered at 50/s`. */
  readonly load: string;
  /** One verification at a time: every hop its own invocation and SQS receive (the most a verification costs). */
  readonly usd_per_million_one_at_a_time: number;
  readonly breakdown_one_at_a_time: Readonly<Record<string, number>>;
  /** Each type one at a time (the flows of docs/sandbox.md; control types include the statement-code call). */
  readonly usd_per_million_by_type: Readonly<Record<'status' | 'status_ownership' | 'control_ownership', number>>;
  /** The modelled ceiling of the tenant with 8 list shards (the goal's figure). */
  readonly tenant_ceiling_verifications_per_s: number;
  /** The same model, by the tenant's list shards (`"1"`, `"8"`). */
  readonly capacity: Readonly<Record<string, CapacityFigures>>;
}

/** The per-tenant write ceiling of one sustained run (test/bench/capacity-model.ts). */
export interface CapacityFigures {
  readonly tenant_shards: number;
  readonly verifications: number;
  /** 1,000 WCU/s ÷ the busiest partition's write units per verification. */
  readonly tenant_ceiling_verifications_per_s: number;
  /** Its class, e.g. `gsi1 T#<tenant>#VA`. */
  readonly limiting_partition: string;
  readonly top_partitions: readonly {
    readonly partition: string;
    /** Partitions of this class written in the run. */
    readonly partitions: number;
    readonly entities: string;
    /** Of the busiest partition of the class. */
    readonly wru_per_verification: number;
    readonly ceiling_verifications_per_s: number;
  }[];
  /** Write units per verification by table and index: attributed from the stream, and as DynamoDB reported them consumed. */
  readonly wru_by_index: Readonly<Record<string, { readonly attributed: number; readonly consumed: number }>>;
}

/** Issues 11 and 12's goals, printed beside the figures (not assertions). */
export const GOALS = {
  initRatio: 1.15,
  /** A cold request (init and first invocation) / the floor's (init and one GetItem), issue 32. */
  coldRatio: 1.2,
  bundleRatio: 1.25,
  /** Peak RSS / the floor's peak RSS (issue 21: a ratio, measured side by side, replaces 100 MB). */
  rssRatio: 1.3,
  overheadRatio: 1.25,
  listRatio: 1.5,
  pipelineEventsPerS: 100,
  pipelineP99Ms: 2_000,
  /** Per million sustained `status` verifications. */
  usdPerMillion: 10,
  /** Modelled verifications a second of one tenant with `tenantShards` list shards. */
  tenantCeilingPerS: 1_000,
  tenantShards: 8,
  /** List latency, 8 shards / 1 shard, page 0 size 100 at 100k records. */
  shardRatio: 1.5,
  /** List read units per page, 100k / 1k records. */
  listRruRatio: 1.5,
} as const;

/** A goal: the figure is at most (`<=`) or at least (`>=`) the limit. */
export interface Goal {
  readonly op: '<=' | '>=';
  readonly limit: number;
}

/**
 * One figure judged against its goal (test/bench/verdicts.ts). `measure` names the figure
 * as results.json does (`bundle_ratio`, `overhead_ratio`, `p99_ms`, …); `subject` the
 * function or row it is of, where the part has several.
 */
export interface Verdict {
  readonly part: BenchPart;
  readonly measure: string;
  readonly subject?: string;
  readonly value: number;
  readonly goal: Goal;
  readonly meets: boolean;
}

export interface VerdictCount {
  readonly passed: number;
  readonly failed: number;
}

/** How many figures met their goals, in all and by each part that ran. */
export interface VerdictSummary extends VerdictCount {
  readonly parts: Readonly<Partial<Record<BenchPart, VerdictCount>>>;
}

/** `.bench/results.json` as written: the figures of the parts that ran, and their verdicts. */
export type BenchResultsFile = Partial<BenchResults> & {
  readonly verdicts: readonly Verdict[];
  readonly summary: VerdictSummary;
};
