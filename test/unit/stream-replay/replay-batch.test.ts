import {
  type _Record,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { replayBatch, type StreamBatchInfo } from '#lib/stream-replay/replay-batch';

/**
 * The replay's core, on a stream answered page by page: the batch's range read from its
 * start sequence number to its end, the records the consumer's filters pass, in Lambda's
 * format, handed to the consumer in one invocation; nothing done with a batch the stream
 * may no longer hold (24 h). The same core runs against DynamoDB Local's real stream in
 * test/integration/local/dead-letters/stream-replay.test.ts.
 */
const streams = mockClient(DynamoDBStreamsClient);
const STREAM_ARN = 'arn:aws:dynamodb:eu-west-1:123456789012:table/verify/stream/2026-03-01T00:00:00.000';
const ARRIVED = '2026-03-02T10:00:00.000Z';
const BATCH: StreamBatchInfo = {
  shardId: 'shardId-00000001-aaaa',
  startSequenceNumber: '100',
  endSequenceNumber: '300',
  approximateArrivalOfFirstRecord: ARRIVED,
  approximateArrivalOfLastRecord: ARRIVED,
  batchSize: 3,
  streamArn: STREAM_ARN,
};
const at = (iso: string) => () => new Date(iso);

/** A stream record as GetRecords gives it: an item of `entity`, keyed by its sequence number. */
const record = (sequenceNumber: string, entity: string): _Record => ({
  eventID: `e-${sequenceNumber}`,
  eventName: 'INSERT',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'eu-west-1',
  dynamodb: {
    ApproximateCreationDateTime: new Date(ARRIVED),
    Keys: { pk: { S: `K#${sequenceNumber}` }, sk: { S: 'S' } },
    NewImage: { pk: { S: `K#${sequenceNumber}` }, sk: { S: 'S' }, entity: { S: entity } },
    SequenceNumber: sequenceNumber,
    SizeBytes: 30,
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  },
});

let invocations: DynamoDBStreamEvent[];
let answer: () => Promise<unknown>;
const ports = (now = at('2026-03-02T12:00:00.000Z')) => ({
  consumer: 'StreamRouter',
  streams: new DynamoDBStreamsClient({ region: 'eu-west-1' }),
  // The consumer's mapping passes accounts only.
  filters: [{ dynamodb: { NewImage: { entity: { S: ['account'] } } } }],
  region: 'eu-west-1',
  now,
  invoke: (event: DynamoDBStreamEvent) => {
    invocations.push(event);
    return answer();
  },
});

beforeEach(() => {
  streams.reset();
  invocations = [];
  answer = async () => ({ batchItemFailures: [] });
  // Two pages: the range ends in the second, which goes on past it.
  streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it-1' });
  streams.on(GetRecordsCommand, { ShardIterator: 'it-1' }).resolves({
    Records: [record('100', 'account'), record('150', 'person'), record('200', 'account')],
    NextShardIterator: 'it-2',
  });
  streams
    .on(GetRecordsCommand, { ShardIterator: 'it-2' })
    .resolves({ Records: [record('300', 'account'), record('400', 'account')], NextShardIterator: 'it-3' });
});

describe('replaying a stream batch given up', () => {
  it('reads the range from its start sequence number and invokes the consumer once with the records its filters pass, up to the end', async () => {
    const result = await replayBatch(BATCH, ports());

    expect(streams.commandCalls(GetShardIteratorCommand).map((call) => call.args[0].input)).toEqual([
      { StreamArn: STREAM_ARN, ShardId: BATCH.shardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: '100' },
    ]);
    expect(invocations).toHaveLength(1);
    expect(invocations[0]?.Records.map((r) => r.dynamodb?.SequenceNumber)).toEqual(['100', '200', '300']);
    expect(invocations[0]?.Records[0]).toMatchObject({
      eventSource: 'aws:dynamodb',
      awsRegion: 'eu-west-1',
      eventSourceARN: STREAM_ARN,
      dynamodb: { ApproximateCreationDateTime: Date.parse(ARRIVED) / 1000, NewImage: { entity: { S: 'account' } } },
    });
    expect(result).toMatchObject({
      kind: 'replayed',
      message: 'replayed 3 record(s) to StreamRouter, which processed them',
    });
  });

  it('does nothing with a batch whose first record reached the stream 24 h ago or more, and says so: the stream keeps records 24 h', async () => {
    const result = await replayBatch(BATCH, ports(at('2026-03-03T10:00:00.000Z')));

    expect(result.kind).toBe('expired');
    expect(result.message).toBe(
      `the batch's first record reached the stream at ${ARRIVED}, 24 h ago or more: the stream keeps records 24 h, so they may be gone; nothing was replayed`,
    );
    expect(streams.calls()).toEqual([]);
    expect(invocations).toEqual([]);
  });

  it.each([
    ['trimmed the records', new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }), /trimmed/],
    [
      'lost the shard',
      new ResourceNotFoundException({ message: 'no shard', $metadata: {} }),
      /no longer has the shard/,
    ],
  ])('does nothing when the stream has %s, and says so', async (_name, error, said) => {
    streams.on(GetShardIteratorCommand).rejects(error);

    const result = await replayBatch(BATCH, ports());

    expect(result.kind).toBe('expired');
    expect(result.message).toMatch(said);
    expect(result.message).toMatch(/nothing was replayed$/);
    expect(invocations).toEqual([]);
  });

  it('does nothing when the range holds another number of records than the batch, and says how many', async () => {
    const result = await replayBatch({ ...BATCH, batchSize: 2 }, ports());

    expect(result.kind).toBe('mismatch');
    expect(result.message).toMatch(/^3 record\(s\) from 100 to 300 pass the consumer's filters, not the batch's 2/);
    expect(invocations).toEqual([]);
  });

  it.each([
    ['names a record that failed', async () => ({ batchItemFailures: [{ itemIdentifier: '200' }] }), /from 200/],
    ['fails', async () => Promise.reject(new Error('Unhandled: the bank is unreachable')), /the bank is unreachable/],
  ])('says the replay failed when the consumer %s', async (_name, failing, said) => {
    answer = failing;

    const result = await replayBatch(BATCH, ports());

    expect(result.kind).toBe('failed');
    expect(result.message).toMatch(/^replayed 3 record\(s\) to StreamRouter, which failed/);
    expect(result.message).toMatch(said);
  });
});
