import type { DynamoDBRecord } from 'aws-lambda';
import { type BatchOutcome, batchOutcome } from '#lib/event-source-mapping/batch-outcome';
import { type FilterPattern, passesFilters } from '#lib/event-source-mapping/stream-filter';
import { type ConsumerDefinition, type ConsumerSource, streamFilterPattern } from '#lib/service/index';
import type { WorkerContext } from '../background-worker';
import { consumerFunction } from '../lambda-invoker';
import { describeError } from '../log';
import type { Activity, PipelineWorker } from './pipeline-worker';
import { Sleeper } from './sleeper';
import type { StreamCheckpoints } from './stream-checkpoints';
import { type StreamFailure, streamFailure } from './stream-failure';
import { partitionedBy } from './stream-partitioning';
import { type LaneState, type ShardState, StreamShards } from './stream-shards';

// Plays a Lambda event source mapping on the table's stream, for one consumer. StreamShards
// finds the shards (DescribeStream, again every `shardRefreshMs` and at once when a shard
// ends) and reads them (from the checkpoint or TRIM_HORIZON, parents before children).
//
// Records in Lambda's format are filtered (dropped unless they match one of the consumer's
// filters), batched up to batchSize and handed to the function. On failure the batch is
// retried, with exponential backoff, from the first failed record (batchItemFailures) or
// from its start (an error); records before the failure are done. A batch that fails more
// than maxRetryAttempts times in a row is handed to the on-failure destination (logged at
// error, kept in `failures`) and the shard moves on. Up to parallelizationFactor batches
// per shard at a time, each over its own partition keys (a lane), so the records of one
// key are never lost or reordered; the checkpoint stays before the oldest record not done.

export type StreamConsumer = ConsumerDefinition & {
  readonly source: Extract<ConsumerSource, { kind: 'table-stream' }>;
};

export interface StreamTimings {
  /** Pause between polls of an idle stream (Lambda polls each shard about 4 times a second). */
  readonly pollMs: number;
  readonly shardRefreshMs: number;
  /** Backoff of a failed batch: base × 2^(failures − 1), at most max. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

type Step = { readonly idle: boolean; readonly waitMs: number };
const IDLE: Step = { idle: true, waitMs: Infinity };
const WORKED: Step = { idle: false, waitMs: 0 };

export class StreamPoller implements PipelineWorker {
  readonly name: string;
  private readonly filters: readonly FilterPattern[];
  private readonly sleeper = new Sleeper();
  private context?: WorkerContext;
  private shards?: StreamShards;
  private loop?: Promise<void>;
  private stopped = false;
  private lastRefresh = -Infinity;
  private lastIdlePassStart = -Infinity;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly consumer: StreamConsumer,
    private readonly options: {
      readonly timings: StreamTimings;
      readonly checkpoints: StreamCheckpoints;
      readonly activity: Activity;
      /** The on-failure destination. */
      readonly failures: StreamFailure[];
      /** Added to the ERROR line of a batch given up: how to replay it (LocalPipelineOptions.replayHint). */
      readonly replayHint?: (startSequenceNumber: string) => string | undefined;
    },
  ) {
    this.name = consumer.id;
    this.filters = consumer.source.filters.map(streamFilterPattern);
  }

  async start(context: WorkerContext): Promise<void> {
    const streamArn = context.table.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${context.tableName} has no stream for ${this.name} to read`);
    this.context = context;
    this.shards = new StreamShards(
      context.dynamoEndpoint,
      streamArn,
      this.options.checkpoints,
      context.log,
      partitionedBy(context.table, this.consumer.source.parallelizationFactor ?? 1),
    );
    await this.options.checkpoints.load(streamArn);
    await this.refreshShards(); // fails the start loudly if the stream cannot be read
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.sleeper.stop();
    await this.loop;
    await Promise.all(this.inFlight);
    await this.options.checkpoints.flush();
    this.shards?.destroy();
  }

  wake(): void {
    this.sleeper.wake();
  }

  busy(since: number): string | undefined {
    if (this.stopped || this.lastIdlePassStart >= since) return undefined;
    return `stream consumer ${this.name} has not yet found the stream drained`;
  }

  private get started(): { readonly context: WorkerContext; readonly shards: StreamShards } {
    if (!this.context || !this.shards) throw new Error(`stream consumer ${this.name} is not started`);
    return { context: this.context, shards: this.shards };
  }

  private async run(): Promise<void> {
    const { pollMs, retryMaxMs } = this.options.timings;
    const unsubscribe = this.started.context.availability.onChange(() => this.sleeper.wake());
    while (!this.stopped) {
      // While the table is away a batch would only fail and use up its retries (the stream
      // is the table's own: it is away too); the table coming back wakes the loop.
      if (!this.started.context.availability.available) {
        await this.sleeper.sleep(retryMaxMs);
        continue;
      }
      const passStart = performance.now();
      let waitMs = retryMaxMs;
      try {
        const step = await this.pass();
        if (step.idle) this.lastIdlePassStart = passStart;
        waitMs = Math.min(step.waitMs, pollMs);
      } catch (error) {
        this.context?.log('warn', `stream poll for ${this.name} failed; trying again`, { error });
      }
      await this.sleeper.sleep(waitMs);
    }
    unsubscribe();
  }

  /** Reads each readable shard and starts a batch on each of its idle lanes. */
  private async pass(): Promise<Step> {
    if (performance.now() - this.lastRefresh >= this.options.timings.shardRefreshMs) await this.refreshShards();
    let idle = true;
    let waitMs = Infinity;
    for (const shard of this.started.shards.readable()) {
      if (this.stopped) break;
      const step = await this.step(shard);
      idle &&= step.idle;
      waitMs = Math.min(waitMs, step.waitMs);
    }
    return { idle, waitMs };
  }

  /**
   * Reads the shard (ahead, while its lanes hold less than a batch each) and starts a batch
   * on every lane that has records and none in flight; a batch that ends wakes the loop.
   */
  private async step(shard: ShardState): Promise<Step> {
    const { batchSize } = this.consumer.source;
    const buffered = shard.lanes.reduce((sum, lane) => sum + lane.pending.length, 0);
    const wanted = buffered < batchSize * shard.lanes.length && !shard.ended;
    const read = wanted ? await this.started.shards.read(shard, (record) => passesFilters(this.filters, record)) : 0;
    const now = performance.now();
    let started = false;
    let waitMs = Infinity;
    for (const lane of shard.lanes) {
      if (lane.inFlight || lane.pending.length === 0) continue;
      if (lane.failures > 0 && now < lane.retryAt) {
        waitMs = Math.min(waitMs, lane.retryAt - now);
        continue;
      }
      const batch: Promise<void> = this.deliver(shard, lane)
        .catch((error) => this.context?.log('warn', `stream batch of ${this.name} failed to complete`, { error }))
        .finally(() => {
          lane.inFlight = undefined;
          this.inFlight.delete(batch);
          this.sleeper.wake();
        });
      lane.inFlight = batch;
      this.inFlight.add(batch);
      started = true;
    }
    if (started || read > 0) return WORKED;
    if (shard.lanes.some((lane) => lane.inFlight)) return { idle: false, waitMs };
    if (shard.pending.length > 0) return { idle: false, waitMs };
    if (shard.ended) {
      this.started.shards.finish(shard);
      this.lastRefresh = -Infinity; // its children may be there already
      return WORKED;
    }
    return IDLE;
  }

  private async deliver(shard: ShardState, lane: LaneState): Promise<void> {
    const { invoker, log } = this.started.context;
    const batch = lane.pending.slice(0, this.consumer.source.batchSize);
    const sequenceNumbers = batch.map((record) => record.dynamodb?.SequenceNumber ?? '');
    let outcome: BatchOutcome;
    try {
      const response = await this.options.activity.during(() =>
        invoker.invoke(consumerFunction(this.consumer), { Records: batch }),
      );
      outcome = batchOutcome(response, sequenceNumbers);
    } catch (error) {
      outcome = { kind: 'all-failed', reason: describeError(error) };
    }

    if (outcome.kind === 'success') {
      log('debug', `${this.name} processed ${batch.length} stream record(s)`, { shard: shard.id });
      this.started.shards.done(shard, batch.length, lane);
      return;
    }
    const firstFailed = outcome.kind === 'all-failed' ? 0 : sequenceNumbers.findIndex((n) => outcome.ids.has(n));
    const reason =
      outcome.kind === 'all-failed' ? outcome.reason : `batchItemFailures from ${sequenceNumbers[firstFailed]}`;
    if (firstFailed > 0) this.started.shards.done(shard, firstFailed, lane); // the retried batch starts at the failure
    lane.failures++;
    const { maxRetryAttempts } = this.consumer.source;
    if (lane.failures > maxRetryAttempts) {
      this.handToOnFailure(shard, lane, batch.slice(firstFailed), reason);
      return;
    }
    const { retryBaseMs, retryMaxMs } = this.options.timings;
    const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** (lane.failures - 1));
    lane.retryAt = performance.now() + delay;
    log('warn', `${this.name} failed a stream batch; retrying from ${sequenceNumbers[firstFailed]} in ${delay} ms`, {
      shard: shard.id,
      attempt: lane.failures,
      maxRetryAttempts,
      error: reason,
    });
  }

  private handToOnFailure(shard: ShardState, lane: LaneState, records: DynamoDBRecord[], error: string): void {
    const batch = { shardId: shard.id, streamArn: this.started.shards.streamArn, records };
    const failure = streamFailure(this.name, batch, lane.failures, error);
    this.options.failures.push(failure);
    const hint = this.options.replayHint?.(failure.batchInfo.startSequenceNumber);
    const message = `${this.name} gave up on a stream batch; sent to the on-failure destination`;
    this.started.context.log('error', hint ? `${message}; ${hint}` : message, {
      ...failure.batchInfo,
      attempts: failure.attempts,
      error,
    });
    this.started.shards.done(shard, records.length, lane);
  }

  private async refreshShards(): Promise<void> {
    await this.started.shards.refresh();
    this.lastRefresh = performance.now();
  }
}
