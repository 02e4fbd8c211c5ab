import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  type Shard,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { toLambdaRecord } from '#lib/event-source-mapping/stream-records';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../aws-account';
import type { RuntimeLog } from '../log';
import type { StreamCheckpoints } from './stream-checkpoints';
import type { StreamPartitioning } from './stream-partitioning';

/** One shard as a consumer reads it. */
export interface ShardState {
  readonly id: string;
  readonly parentId?: string;
  /** Undefined until acquired, and after it expired. */
  iterator?: string;
  /** Sequence number of the last record read from the API. */
  lastRead?: string;
  /**
   * Records read that passed the filters, in stream order, from the first not done yet
   * (every lane's): the checkpoint stays before it.
   */
  readonly pending: DynamoDBRecord[];
  /**
   * The same records split by partition key into the consumer's parallelizationFactor
   * lanes, each in stream order: one batch per lane is in flight at a time.
   */
  readonly lanes: readonly LaneState[];
  /** The API has nothing more: the shard is closed and read to its end. */
  ended: boolean;
}

/** One of a shard's concurrent batches (Lambda's ParallelizationFactor): the records of some partition keys. */
export interface LaneState {
  /** Records not done yet, in stream order. */
  readonly pending: DynamoDBRecord[];
  /** Failed invocations of the batch at the head of `pending`. */
  failures: number;
  retryAt: number;
  /** The batch being delivered, until it is done. */
  inFlight?: Promise<void>;
}

/**
 * The DynamoDB Streams API side of a stream consumer: which shards exist, where to read
 * each from, and reading records in Lambda's format. A shard is read from its checkpoint
 * or, without one, from TRIM_HORIZON, whether it existed at start or appeared later:
 * records written before the poller started (or to a shard it has not described yet) must
 * still be delivered, which LATEST would skip. DynamoDB Local keeps its streams in a
 * persistent DATA_DIR, hence the checkpoints.
 */
export class StreamShards {
  private readonly client: DynamoDBStreamsClient;
  private readonly shards = new Map<string, ShardState>();
  private readonly finished = new Set<string>();
  /** Records done while one before them (in another lane) is still pending. */
  private readonly completed = new WeakSet<DynamoDBRecord>();

  constructor(
    endpoint: string,
    readonly streamArn: string,
    private readonly checkpoints: StreamCheckpoints,
    private readonly log: RuntimeLog,
    private readonly partitioning: StreamPartitioning = { lanes: 1, laneOf: () => 0 },
  ) {
    this.client = new DynamoDBStreamsClient({
      endpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    });
  }

  /** Shards to read now: a child waits until its parent is read to its end, as in Lambda. */
  readable(): ShardState[] {
    return [...this.shards.values()].filter((shard) => !shard.parentId || !this.shards.has(shard.parentId));
  }

  /** DescribeStream (all pages); adds the shards not seen before. */
  async refresh(): Promise<void> {
    const described: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await this.client.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      described.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    for (const { ShardId: id, ParentShardId: parentId } of described) {
      if (!id || this.shards.has(id) || this.finished.has(id)) continue;
      const lanes = Array.from({ length: this.partitioning.lanes }, () => ({ pending: [], failures: 0, retryAt: 0 }));
      this.shards.set(id, { id, parentId, pending: [], lanes, ended: false });
    }
  }

  /** An ended shard with nothing pending is done for good (DescribeStream lists it for 24 h more). */
  finish(shard: ShardState): void {
    this.shards.delete(shard.id);
    this.finished.add(shard.id);
  }

  /**
   * One GetRecords into `shard.pending`, keeping the records `accept` lets through; returns
   * how many records the API gave.
   */
  async read(shard: ShardState, accept: (record: DynamoDBRecord) => boolean, renewed = false): Promise<number> {
    shard.iterator ??= await this.iterator(shard);
    if (!shard.iterator) return 0;
    let output: GetRecordsCommandOutput;
    try {
      output = await this.client.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 1000 }));
    } catch (error) {
      if (error instanceof ResourceNotFoundException) {
        shard.ended = true;
        return 0;
      }
      // Iterators expire (15 minutes in AWS); a new one continues after the last record read.
      const stale = error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException;
      if (!stale || renewed) throw error;
      shard.iterator = undefined;
      return this.read(shard, accept, true);
    }
    shard.iterator = output.NextShardIterator;
    if (!output.NextShardIterator) shard.ended = true;
    const records = output.Records ?? [];
    for (const record of records) {
      const event = toLambdaRecord(record, { streamArn: this.streamArn, region: LOCAL_REGION });
      shard.lastRead = event.dynamodb?.SequenceNumber;
      if (!accept(event)) continue;
      shard.pending.push(event);
      shard.lanes[this.partitioning.laneOf(event)]?.pending.push(event);
    }
    // Records that were all filtered out are done.
    if (records.length > 0 && shard.pending.length === 0) this.checkpoint(shard);
    return records.length;
  }

  /**
   * The first `count` pending records of `lane` are done: drop them and move the checkpoint
   * past the records done with none pending before them (and past the records filtered
   * out behind them when nothing is left pending). Another lane's record still pending
   * holds the checkpoint back, so a restart replays it and whatever follows it.
   */
  done(shard: ShardState, count: number, lane: LaneState = firstLane(shard)): void {
    for (const record of lane.pending.splice(0, count)) this.completed.add(record);
    lane.failures = 0;
    let last: DynamoDBRecord | undefined;
    while (shard.pending.length > 0 && this.completed.has(shard.pending[0] as DynamoDBRecord)) {
      last = shard.pending.shift();
    }
    if (shard.pending.length === 0) this.checkpoint(shard);
    else if (last) this.checkpoint(shard, last.dynamodb?.SequenceNumber);
  }

  destroy(): void {
    this.client.destroy();
  }

  private checkpoint(shard: ShardState, sequenceNumber = shard.lastRead): void {
    if (sequenceNumber) this.checkpoints.set(shard.id, sequenceNumber);
  }

  /** After the last record read or the checkpoint; else from the oldest record. */
  private async iterator(shard: ShardState): Promise<string | undefined> {
    const after = shard.lastRead ?? this.checkpoints.get(shard.id);
    const request = (type: 'AFTER_SEQUENCE_NUMBER' | 'TRIM_HORIZON') =>
      this.client.send(
        new GetShardIteratorCommand({
          StreamArn: this.streamArn,
          ShardId: shard.id,
          ShardIteratorType: type,
          SequenceNumber: type === 'AFTER_SEQUENCE_NUMBER' ? after : undefined,
        }),
      );
    try {
      return (await request(after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON')).ShardIterator;
    } catch (error) {
      if (error instanceof ResourceNotFoundException) {
        shard.ended = true;
        return undefined;
      }
      if (!(error instanceof TrimmedDataAccessException) || !after) throw error;
      this.log('warn', `stream records after ${after} were trimmed before they were read`, { shard: shard.id });
      return (await request('TRIM_HORIZON')).ShardIterator;
    }
  }
}

function firstLane(shard: ShardState): LaneState {
  const [lane] = shard.lanes;
  if (!lane) throw new Error(`shard ${shard.id} has no lanes`);
  return lane;
}
