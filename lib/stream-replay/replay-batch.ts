import {
  type _Record,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type BatchOutcome, batchOutcome } from '#lib/event-source-mapping/batch-outcome';
import type { StreamBatchInfo } from '#lib/event-source-mapping/stream-batch-info';
import { type FilterPattern, passesFilters } from '#lib/event-source-mapping/stream-filter';
import { toLambdaRecord } from '#lib/event-source-mapping/stream-records';

// Replays a table-stream batch a consumer's event source mapping gave up on, from what its
// on-failure destination says of it (shard, sequence range, size): the range is read again
// from the stream, from its first record to its last, the records the mapping's filters
// pass are put in Lambda's format, and the consumer is invoked once with exactly them, as
// the mapping invoked it. `npm run stream:replay` runs it on AWS (DynamoDB Streams, Lambda's
// Invoke; bin/stream-replay.ts), the local runtime's Replay on DynamoDB Local's stream and
// its own invoker (lib/local/pipeline/stream-replays.ts). A stream keeps its records 24 h:
// a batch older than that, or whose records or shard are gone, is left alone, saying so.

export type { StreamBatchInfo };

/** How long a DynamoDB stream keeps a record. */
export const STREAM_RETENTION_HOURS = 24;

/** Where the batch is read from, and what its consumer's mapping lets through. */
export interface StreamReadPorts {
  /** The consumer's name in what is said (the function's). */
  readonly consumer: string;
  /** GetShardIterator and GetRecords on the batch's stream: AWS's, or DynamoDB Local's. */
  readonly streams: Pick<DynamoDBStreamsClient, 'send'>;
  /** The mapping's filters: a record that matches none never reached the consumer. */
  readonly filters: readonly FilterPattern[];
  /**
   * Whether a record the filters pass was in the same batch as the batch's first record: a
   * mapping with a ParallelizationFactor splits a shard among batches by partition key.
   * Every record, when absent.
   */
  readonly sameBatch?: (record: DynamoDBRecord, first: DynamoDBRecord) => boolean;
  /** `awsRegion` of the records: the stream's region in AWS. */
  readonly region: string;
  readonly now?: () => Date;
}

export interface StreamReplayPorts extends StreamReadPorts {
  /** Invokes the consumer with the batch as its mapping would; resolves with its answer, rejects when it fails. */
  readonly invoke: (event: DynamoDBStreamEvent) => Promise<unknown>;
}

/**
 * What became of a replay, said in `message`: `replayed`, the consumer processed every
 * record; `failed`, it was invoked and failed (some or all); `read`, read and not invoked
 * (a dry run); `expired` and `mismatch`, nothing invoked, as the stream may no longer hold
 * the records, or its range holds another batch than the one given up.
 */
export interface ReplayResult {
  readonly kind: 'replayed' | 'failed' | 'read' | 'expired' | 'mismatch';
  /** The batch's records as the consumer gets them (those read, for a mismatch). */
  readonly records: readonly DynamoDBRecord[];
  readonly message: string;
}

/** Pages of nothing in a row after which the range's end counts as not found: counted work, not time. */
const MAX_EMPTY_PAGES = 10;

/** Reads the batch's records from the stream, without invoking anything (`kind` `read` when they are the batch). */
export async function readBatch(batch: StreamBatchInfo, ports: StreamReadPorts): Promise<ReplayResult> {
  const tooOld = ageRefusal(batch, ports.now?.() ?? new Date());
  if (tooOld) return { kind: 'expired', records: [], message: tooOld };
  let read: _Record[];
  try {
    read = await readRange(batch, ports.streams);
  } catch (error) {
    const gone = goneRefusal(error);
    if (gone) return { kind: 'expired', records: [], message: gone };
    throw error;
  }
  const source = { streamArn: batch.streamArn, region: ports.region };
  const passed = read.map((record) => toLambdaRecord(record, source)).filter((r) => passesFilters(ports.filters, r));
  const [first] = passed;
  const records = first && ports.sameBatch ? passed.filter((record) => ports.sameBatch?.(record, first)) : passed;
  const mismatch = mismatchOf(batch, records);
  if (mismatch) return { kind: 'mismatch', records, message: mismatch };
  return { kind: 'read', records, message: `would replay ${records.length} record(s) to ${ports.consumer}` };
}

/** Reads the batch's records from the stream and invokes the consumer once with exactly them. */
export async function replayBatch(batch: StreamBatchInfo, ports: StreamReplayPorts): Promise<ReplayResult> {
  const read = await readBatch(batch, ports);
  if (read.kind !== 'read') return read;
  const { records } = read;
  let outcome: BatchOutcome;
  try {
    const sequenceNumbers = records.map((record) => record.dynamodb?.SequenceNumber ?? '');
    outcome = batchOutcome(await ports.invoke({ Records: [...records] }), sequenceNumbers);
  } catch (error) {
    outcome = { kind: 'all-failed', reason: error instanceof Error ? error.message : String(error) };
  }
  const replayed = `replayed ${records.length} record(s) to ${ports.consumer}`;
  if (outcome.kind === 'success') return { kind: 'replayed', records, message: `${replayed}, which processed them` };
  // As the stream pollers say it: the first record the consumer named.
  const failedFrom = () =>
    records.find((r) => outcome.kind === 'some-failed' && outcome.ids.has(r.dynamodb?.SequenceNumber ?? ''));
  const why =
    outcome.kind === 'all-failed' ? outcome.reason : `batchItemFailures from ${failedFrom()?.dynamodb?.SequenceNumber}`;
  return { kind: 'failed', records, message: `${replayed}, which failed: ${why}` };
}

/** The stream's records from the batch's first sequence number through its last, in order. */
async function readRange(batch: StreamBatchInfo, streams: StreamReadPorts['streams']): Promise<_Record[]> {
  const end = BigInt(batch.endSequenceNumber);
  const { ShardIterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: batch.streamArn,
      ShardId: batch.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: batch.startSequenceNumber,
    }),
  );
  const records: _Record[] = [];
  let iterator = ShardIterator;
  for (let empty = 0; iterator && empty < MAX_EMPTY_PAGES; ) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    const got = page.Records ?? [];
    for (const record of got) {
      if (BigInt(record.dynamodb?.SequenceNumber ?? '0') > end) return records;
      records.push(record);
    }
    if (records.length > 0 && BigInt(records.at(-1)?.dynamodb?.SequenceNumber ?? '0') === end) return records;
    empty = got.length === 0 ? empty + 1 : 0;
    iterator = page.NextShardIterator;
  }
  return records;
}

function ageRefusal(batch: StreamBatchInfo, now: Date): string | undefined {
  const arrived = batch.approximateArrivalOfFirstRecord;
  if (!arrived || now.getTime() - Date.parse(arrived) < STREAM_RETENTION_HOURS * 3_600_000) return undefined;
  return (
    `the batch's first record reached the stream at ${arrived}, ${STREAM_RETENTION_HOURS} h ago or more: ` +
    `the stream keeps records ${STREAM_RETENTION_HOURS} h, so they may be gone; nothing was replayed`
  );
}

function goneRefusal(error: unknown): string | undefined {
  if (error instanceof TrimmedDataAccessException) {
    return `the stream has trimmed the batch's records (kept ${STREAM_RETENTION_HOURS} h); nothing was replayed`;
  }
  if (error instanceof ResourceNotFoundException) {
    return (
      `the stream no longer has the shard, or is gone (a closed shard is deleted ${STREAM_RETENTION_HOURS} h ` +
      'after it closed); nothing was replayed'
    );
  }
  return undefined;
}

/** Why the records read are not the batch given up, if they are not. */
function mismatchOf(batch: StreamBatchInfo, records: readonly DynamoDBRecord[]): string | undefined {
  const sequence = (record?: DynamoDBRecord) => record?.dynamodb?.SequenceNumber;
  const { startSequenceNumber: start, endSequenceNumber: end, batchSize } = batch;
  if (records.length === batchSize && sequence(records[0]) === start && sequence(records.at(-1)) === end) {
    return undefined;
  }
  return (
    `${records.length} record(s) from ${start} to ${end} pass the consumer's filters, not the batch's ${batchSize} ` +
    `from ${start} to ${end}: the mapping's filters changed since, or it splits a shard among batches ` +
    '(ParallelizationFactor), so the range holds records of other batches; nothing was replayed'
  );
}
