import type { DynamoDbLocal } from './dynamodb-local';
import type { FakeIncrease } from './fake-increase';
import type { FakePlaid } from './fake-plaid';
import type { FaultInjection } from './faults/fault-injection';
import type { LocalIssuer } from './gateway/jwt-issuer';
import type { TenantAccessView } from './iam/tenant-access-ledger';
import type { LocalOutbox } from './pipeline/local-outbox';
import type { LocalPipeline } from './pipeline/local-pipeline';
import type { LocalQueues } from './pipeline/local-queues';
import type { StreamFailure } from './pipeline/stream-failure';

// What `startLocalRuntime` (./runtime.ts) hands its caller: the URL and table, tokens, the
// queues, stream failures and outbox to look at, the fakes and faults it runs on, and the
// ways to run a schedule, wait for rest and stop.

export interface LocalRuntime {
  /** e.g. `http://127.0.0.1:3000`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly tableName: string;
  readonly dynamoEndpoint: string;
  /** The DynamoDB Local this runtime started and supervises (absent with `dynamoEndpoint`). */
  readonly dynamoDbLocal?: Pick<DynamoDbLocal, 'pid' | 'availability'>;
  readonly issuer: LocalIssuer;
  /** A token the gateway accepts: `sub` = `client_id` = tenant, every scope by default. */
  mintToken(tenant: string, scopes?: readonly string[]): Promise<string>;
  /** The in-process queues handlers send to: `queue(id)` and `deadLetterQueue(id)` show their messages. */
  readonly queues: LocalQueues;
  /** Stream batches that exhausted their retries (the on-failure destination), oldest first. */
  readonly streamFailures: readonly StreamFailure[];
  /** Replays one to its consumer, as the console's Replay does (LocalPipeline.replayStreamFailure). */
  readonly replayStreamFailure: LocalPipeline['replayStreamFailure'];
  /** Emails handlers sent: files under `outbox.dir`, and `outbox.messages`. */
  readonly outbox: LocalOutbox;
  /** The Increase fake the bank runs on (`increaseFake`), if it does. */
  readonly increaseFake?: FakeIncrease;
  /** The Plaid fake the identity vendor runs on (`plaidFake`), if it does. */
  readonly plaidFake?: FakePlaid;
  /** The faults injected (`faults`), if any: the plan and what was injected so far. */
  readonly faults?: FaultInjection;
  /** Per tenant role and tenant: sessions, calls allowed and refused (docs/local.md#tenant-scoped-credentials). */
  readonly tenantAccess: TenantAccessView;
  /** Runs a schedule consumer now, after a run in progress; resolves with the handler's result. */
  runSchedule(id: string): Promise<unknown>;
  /**
   * Resolves when the pipeline is at rest: streams drained, every consumed queue empty
   * (retries and dead-lettering included), no schedule running or waiting to try a failed
   * run again. Rejects after `timeoutMs` (default 10 s) saying what is still busy. Tests
   * use it instead of sleeping.
   */
  settle(timeoutMs?: number): Promise<void>;
  /**
   * Closes the HTTP port, stops the workers (batches in flight finish), then DynamoDB
   * Local if this runtime started it.
   */
  stop(): Promise<void>;
}
