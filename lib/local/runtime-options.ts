import type { ConsumerDefinition, RouteDefinition } from '#lib/service/index';
import type { BackgroundWorker } from './background-worker';
import type { FakeIncreaseOptions } from './fake-increase-options';
import type { FakePlaidOptions } from './fake-plaid-options';
import type { FaultPlanInput } from './faults/fault-plan';
import type { LocalIssuer } from './gateway/jwt-issuer';
import type { LambdaInvoker } from './lambda-invoker';
import type { RuntimeLog } from './log';
import type { PipelineTimings } from './pipeline/local-pipeline';

// What the local runtime (./runtime.ts) is started with: `npm start` reads these from the
// environment (bin/local.ts), tests and benches pass their own.

/** Every part of the local runtime a caller may choose; each has a default. */
export interface LocalRuntimeOptions {
  /** HTTP port on 127.0.0.1; 0 picks a free one. Default 3000. */
  readonly port?: number;
  /** Use this DynamoDB Local instead of starting one (tests share one per run). */
  readonly dynamoEndpoint?: string;
  /** Default `verify-service`. */
  readonly tableName?: string;
  /**
   * Persist the database, the cipher key, the JWT key, the stream checkpoints, the queued
   * messages and the outbox here; in memory (and `.local/` for the key and outbox) when absent.
   */
  readonly dataDir?: string;
  /**
   * Default: every route of the service (lib/service ROUTES), local-only ones included, and
   * the bank provider's notice route when `BANK_PROVIDER` names a provider on rails
   * (`servedRoutes`). Tests mount fixture handlers.
   */
  readonly routes?: readonly RouteDefinition[];
  /** Default: the key pair persisted in `dataDir`, or `.local/`, that `npm run token` signs with. */
  readonly issuer?: LocalIssuer;
  /** Started after the table exists (before the pipeline's own), stopped before it goes away. */
  readonly workers?: readonly BackgroundWorker[];
  /**
   * The asynchronous pipeline: stream pollers, queue consumers and schedules. Default: the
   * service's (lib/service CONSUMERS); tests pass fixtures, or [] for none.
   */
  readonly consumers?: readonly ConsumerDefinition[];
  /** Poll intervals, retry backoff and the queue time compression; see DEFAULT_PIPELINE_TIMINGS. */
  readonly pipelineTimings?: Partial<PipelineTimings>;
  /**
   * The folder of screening list files loaded into the table at start (OFAC's `sdn.csv`,
   * `alt.csv`, `add.csv`, `cons_prim.csv`, `cons_alt.csv` and `alerts.csv`, each where
   * present; relative to the repository or absolute). Default: the shipped sandbox lists
   * (`SANDBOX_LISTS_DIR`); `false` loads none.
   */
  readonly screeningLists?: string | false;
  /** Where emails are written. Default `<dataDir>/outbox`, or `.local/outbox`. */
  readonly outboxDir?: string;
  readonly functionTimeoutMs?: number;
  /**
   * Runs every handler, routes and consumers alike. Default: a LambdaInvoker with
   * `functionTimeoutMs`; the benchmarks pass a subclass that meters each invocation.
   */
  readonly invoker?: LambdaInvoker;
  /** How long the gateway waits for a function, as an HTTP API's integration timeout. Default 30 s. */
  readonly integrationTimeoutMs?: number;
  /**
   * The bank on a local fake of Increase playing the receiving banks, days compressed
   * (lib/local/bank-on-fake.ts, docs/local.md#real-rails-on-the-increase-fake); an object
   * sets the fake's options (`noticeDelayMs`, …). Default: when `BANK_PROVIDER` is `increase-fake`.
   */
  readonly increaseFake?: boolean | Partial<FakeIncreaseOptions>;
  /**
   * The identity vendor on a local fake of Plaid's Identity Verification
   * (lib/local/identity-on-fake.ts, docs/local.md#identity-checks-on-the-plaid-fake); an
   * object sets the fake's options. Default: when `IDENTITY_VENDOR` is `plaid-fake`.
   */
  readonly plaidFake?: boolean | Partial<FakePlaidOptions>;
  /**
   * Called when the DynamoDB Local this runtime started is gone for good: it died in memory
   * (its data with it) or could not be restarted (docs/local.md#when-dynamodb-local-dies).
   * Default: stop the runtime and exit the process with code 1, as `npm start` does.
   */
  readonly onDatabaseLost?: (error: Error) => void;
  /**
   * Faults injected into a share of the handlers' calls to DynamoDB, the queues, the identity
   * vendor, the bank and webhook receivers, once the runtime is ready
   * (docs/local.md#fault-injection): a plan, or its FAULTS string form (`all=5%`). Default: none.
   */
  readonly faults?: FaultPlanInput | string;
  /**
   * Whether the handlers' DynamoDB calls pass through the IAM proxy that holds tenant
   * sessions to their roles (docs/local.md#tenant-scoped-credentials). The benches that price
   * the handlers' local durations turn it off: in AWS, IAM costs no hop of its own. The
   * functions still assume their tenant roles from the STS stand-in and sign with them.
   * Default: true.
   */
  readonly enforceTenantRoles?: boolean;
  readonly log?: RuntimeLog;
}
