import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { streamFilterPattern } from '#lib/service/index';
import { type ReplayResult, replayBatch, type StreamReplayPorts } from '#lib/stream-replay/replay-batch';
import { LOCAL_CREDENTIALS } from '../aws-account';
import type { WorkerContext } from '../background-worker';
import { consumerFunction } from '../lambda-invoker';
import { describeError } from '../log';
import type { Activity, PipelineWorker } from './pipeline-worker';
import type { StreamFailure } from './stream-failure';
import { partitionedBy } from './stream-partitioning';
import type { StreamConsumer } from './stream-poller';

// Replay, in the local runtime, of a stream batch a consumer gave up on (the console's
// Replay, POST /local/dead-letters/replay): the same core as `npm run stream:replay` in
// AWS (lib/stream-replay/), on DynamoDB Local's stream and the runtime's invoker. The
// records are read again from the stream by the batch's shard and sequence range, not
// taken from the list, which keeps them only to show them: AWS's on-failure message holds
// none. A batch replayed in full leaves the list, as the command deletes its message.

/** Names a batch given up: its consumer, shard and first sequence number. */
export interface StreamBatchRef {
  readonly consumer: string;
  readonly shardId: string;
  readonly startSequenceNumber: string;
}

/** What a replay did (`POST /local/dead-letters/replay`'s answer). */
export interface StreamReplayAnswer extends StreamBatchRef {
  readonly endSequenceNumber: string;
  readonly result: Exclude<ReplayResult['kind'], 'read'>;
  /** The records handed to the consumer (read, when nothing was invoked). */
  readonly records: number;
  readonly message: string;
}

/** No batch given up by that consumer starts there (or it was replayed already). */
export class UnknownStreamBatchError extends Error {}
/** The batch is being replayed now. */
export class ReplayInProgressError extends Error {}

export class StreamReplays implements PipelineWorker {
  readonly name = 'stream-replays';
  private context?: WorkerContext;
  private readonly running = new Map<StreamFailure, Promise<StreamReplayAnswer>>();

  constructor(
    private readonly options: {
      readonly consumers: readonly StreamConsumer[];
      /** The on-failure destination the stream pollers fill. */
      readonly failures: StreamFailure[];
      readonly activity: Activity;
      readonly region: string;
    },
  ) {}

  start(context: WorkerContext): void {
    this.context = context;
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.running.values());
  }

  wake(): void {}

  busy(): string | undefined {
    return this.running.size > 0 ? `${this.running.size} stream batch replay(s) running` : undefined;
  }

  /** Replays the batch; a batch replayed in full leaves the list of those given up. */
  replay(ref: StreamBatchRef): Promise<StreamReplayAnswer> {
    const { failures } = this.options;
    const failure = failures.find(
      ({ consumer, batchInfo }) =>
        consumer === ref.consumer &&
        batchInfo.shardId === ref.shardId &&
        batchInfo.startSequenceNumber === ref.startSequenceNumber,
    );
    if (!failure) {
      const error = new UnknownStreamBatchError('no consumer gave up on a batch there, or it was replayed already');
      return Promise.reject(error);
    }
    if (this.running.has(failure)) return Promise.reject(new ReplayInProgressError('the batch is being replayed'));
    const replay = this.replayOf(failure).finally(() => this.running.delete(failure));
    this.running.set(failure, replay);
    return replay;
  }

  private async replayOf(failure: StreamFailure): Promise<StreamReplayAnswer> {
    const context = this.context;
    const consumer = this.options.consumers.find(({ id }) => id === failure.consumer);
    if (!context || !consumer) throw new Error(`stream consumer ${failure.consumer} is not running`);
    const { batchInfo } = failure;
    const streams = new DynamoDBStreamsClient({
      endpoint: context.dynamoEndpoint,
      region: this.options.region,
      credentials: LOCAL_CREDENTIALS,
    });
    const lanes = partitionedBy(context.table, consumer.source.parallelizationFactor ?? 1);
    const ports: StreamReplayPorts = {
      consumer: consumer.id,
      streams,
      filters: consumer.source.filters.map(streamFilterPattern),
      // The local mapping's lanes are known (AWS's are not): a batch holds the keys of one.
      ...(lanes.lanes > 1 && { sameBatch: (record, first) => lanes.laneOf(record) === lanes.laneOf(first) }),
      region: this.options.region,
      invoke: (event) => this.options.activity.during(() => context.invoker.invoke(consumerFunction(consumer), event)),
    };
    let result: ReplayResult;
    try {
      result = await replayBatch(batchInfo, ports);
    } catch (error) {
      const message = `the stream could not be read: ${describeError(error)}; nothing was replayed`;
      result = { kind: 'failed', records: [], message };
    } finally {
      streams.destroy();
    }
    if (result.kind === 'replayed') this.options.failures.splice(this.options.failures.indexOf(failure), 1);
    context.log(
      result.kind === 'replayed' ? 'info' : 'warn',
      `replay of a stream batch ${consumer.id} gave up: ${result.message}`,
      {
        shardId: batchInfo.shardId,
        startSequenceNumber: batchInfo.startSequenceNumber,
        endSequenceNumber: batchInfo.endSequenceNumber,
      },
    );
    return {
      consumer: consumer.id,
      shardId: batchInfo.shardId,
      startSequenceNumber: batchInfo.startSequenceNumber,
      endSequenceNumber: batchInfo.endSequenceNumber,
      result: result.kind === 'read' ? 'failed' : result.kind,
      records: result.records.length,
      message: result.message,
    };
  }
}
