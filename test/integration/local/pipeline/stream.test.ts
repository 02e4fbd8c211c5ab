import { randomUUID } from 'node:crypto';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogLevel } from '#lib/local/log';
import { partitionedBy } from '#lib/local/pipeline/stream-partitioning';
import type { LocalRuntime } from '#lib/local/runtime';
import { documentClient } from '#shared/db/document-client';
import { FAST_TIMINGS, STREAM_FIXTURES } from '#test/integration/fixtures/pipeline-consumers';
import { fixtureStore } from '#test/integration/fixtures/pipeline-store';
import { api, startTestRuntime } from '#test/integration/harness';

/**
 * The stream poller against DynamoDB Local's real stream, with fixture consumers: the event
 * shape, filters, partial-batch retries and the on-failure destination.
 */
const logged: { level: LogLevel; message: string; details?: Record<string, unknown> }[] = [];
let runtime: LocalRuntime;
let streamArn: string;
const store = fixtureStore();

beforeAll(async () => {
  runtime = await startTestRuntime({
    routes: [],
    consumers: STREAM_FIXTURES,
    pipelineTimings: FAST_TIMINGS,
    log: (level, message, details) => logged.push({ level, message, details }),
  });
  const client = new DynamoDBClient({ endpoint: runtime.dynamoEndpoint });
  streamArn =
    (await client.send(new DescribeTableCommand({ TableName: runtime.tableName }))).Table?.LatestStreamArn ?? '';
  client.destroy();
});
afterAll(() => runtime?.stop());

const put = (item: Record<string, unknown>) =>
  documentClient().send(new PutCommand({ TableName: runtime.tableName, Item: { sk: 'S', ...item } }));
const putAll = (items: Record<string, unknown>[]) =>
  documentClient().send(
    new BatchWriteCommand({
      RequestItems: { [runtime.tableName]: items.map((item) => ({ PutRequest: { Item: { sk: 'S', ...item } } })) },
    }),
  );
const unique = (prefix: string) => `${prefix}#${randomUUID()}`;
const recordsOf = (consumer: string) =>
  store.streamInvocations.filter((i) => i.consumer === consumer).flatMap((i) => i.records);
const keyOf = (record: { dynamodb?: { Keys?: Record<string, { S?: string }> } }) => record.dynamodb?.Keys?.pk?.S;

describe('stream poller (as a Lambda event source mapping on the table stream)', () => {
  it('delivers a written item in the DynamoDBStreamEvent shape Lambda uses', async () => {
    const pk = unique('probe');
    const before = Math.floor(Date.now() / 1000);
    await put({ pk, entity: 'probe', n: 7 });
    await runtime.settle();

    const [record] = recordsOf('ProbeStream').filter((r) => keyOf(r) === pk);
    expect(record).toEqual({
      eventID: expect.any(String),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: streamArn,
      dynamodb: {
        ApproximateCreationDateTime: expect.any(Number),
        Keys: { pk: { S: pk }, sk: { S: 'S' } },
        NewImage: { pk: { S: pk }, sk: { S: 'S' }, entity: { S: 'probe' }, n: { N: '7' } },
        SequenceNumber: expect.stringMatching(/^\d+$/),
        SizeBytes: expect.any(Number),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    });
    // DynamoDB Local rounds the creation time down to the minute.
    expect(record.dynamodb?.ApproximateCreationDateTime).toBeGreaterThanOrEqual(before - 60);
    expect(record.dynamodb?.ApproximateCreationDateTime).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it('applies the consumer filters: a record must match one filter, the rest never reach the function', async () => {
    const probe = unique('probe');
    const modified = unique('probe-modify');
    const other = unique('other');
    await put({ pk: probe, entity: 'probe' }); // INSERT probe: passes
    await put({ pk: other, entity: 'other' }); // another entity: dropped
    await put({ pk: modified, entity: 'probe-modify' }); // INSERT probe-modify: dropped
    const update = (pk: string) =>
      documentClient().send(
        new UpdateCommand({
          TableName: runtime.tableName,
          Key: { pk, sk: 'S' },
          UpdateExpression: 'SET v = :v',
          ExpressionAttributeValues: { ':v': 1 },
        }),
      );
    await update(probe); // MODIFY probe: dropped
    await update(modified); // MODIFY probe-modify: passes
    await documentClient().send(new DeleteCommand({ TableName: runtime.tableName, Key: { pk: probe, sk: 'S' } })); // REMOVE: dropped
    await runtime.settle();

    const seen = recordsOf('ProbeStream')
      .filter((r) => [probe, modified, other].includes(keyOf(r) ?? ''))
      .map((r) => `${r.eventName} ${keyOf(r)}`);
    expect(seen).toEqual([`INSERT ${probe}`, `MODIFY ${modified}`]);
    const modify = recordsOf('ProbeStream').find((r) => keyOf(r) === modified && r.eventName === 'MODIFY');
    expect(modify?.dynamodb?.OldImage).toEqual({ pk: { S: modified }, sk: { S: 'S' }, entity: { S: 'probe-modify' } });
    expect(recordsOf('FlakyStream').some((r) => [probe, modified, other].includes(keyOf(r) ?? ''))).toBe(false);
  });

  it('retries a batch from the record that failed, keeping the order', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => unique(`flaky-${name}`));
    await putAll([
      { pk: a, entity: 'flaky' },
      { pk: b, entity: 'flaky', fail: 'once' },
      { pk: c, entity: 'flaky' },
    ]);
    await runtime.settle();

    const ours = (pk: string) => [a, b, c].includes(pk);
    const processed = store.streamProcessed.filter((p) => p.consumer === 'FlakyStream' && ours(p.pk));
    expect(processed.map((p) => p.pk)).toEqual([a, b, c]);
    const invocations = store.streamInvocations.filter(
      (i) => i.consumer === 'FlakyStream' && i.records.some((r) => ours(keyOf(r) ?? '')),
    );
    const failedAt = invocations.findIndex((i) => i.records.some((r) => keyOf(r) === b));
    const retried = invocations[failedAt + 1];
    const sequenceOfB = invocations[failedAt].records.find((r) => keyOf(r) === b)?.dynamodb?.SequenceNumber;
    expect(retried.records[0].dynamodb?.SequenceNumber).toBe(sequenceOfB);
    const sequence = processed.map((p) => BigInt(p.sequenceNumber));
    expect(sequence).toEqual([...sequence].sort((x, y) => (x < y ? -1 : 1)));
    expect(runtime.streamFailures).toEqual([]);
  });

  it('hands a batch that keeps failing to the on-failure destination after maxRetryAttempts, then moves on', async () => {
    const poison = unique('flaky-poison');
    await put({ pk: poison, entity: 'flaky', fail: 'always' });
    await runtime.settle();

    expect(runtime.streamFailures).toHaveLength(1);
    const [failure] = runtime.streamFailures;
    expect(failure).toMatchObject({
      consumer: 'FlakyStream',
      condition: 'RetryAttemptsExhausted',
      attempts: 3, // the first try and maxRetryAttempts (2) retries
      error: expect.stringContaining('batchItemFailures'),
      batchInfo: { shardId: expect.any(String), batchSize: 1, streamArn },
    });
    expect(failure.records.map(keyOf)).toEqual([poison]);
    expect(failure.batchInfo.startSequenceNumber).toBe(failure.records[0].dynamodb?.SequenceNumber);
    expect(logged.some((l) => l.level === 'error' && l.message.includes('on-failure destination'))).toBe(true);

    const after = unique('flaky-after');
    await put({ pk: after, entity: 'flaky' });
    await runtime.settle();
    expect(store.streamProcessed.some((p) => p.pk === after)).toBe(true);
    expect(runtime.streamFailures).toHaveLength(1);
  });

  it('gives handlers the local queues through their port; a queue without a consumer keeps its messages', async () => {
    const pk = unique('probe');
    await put({ pk, entity: 'probe', enqueue: 'webhookDeliveries' });
    await runtime.settle();
    expect(runtime.queues.queue('webhookDeliveries').bodies()).toContainEqual({ pk });
  });

  it('runs up to parallelizationFactor batches of a shard at once, split by partition key, each key in stream order', async () => {
    const keys = Array.from({ length: 6 }, () => unique('parallel'));
    // The first round's records wait until two batches run at once (never longer than 10 s): a
    // poller that ran one batch at a time would let them go after 10 s, seen as 1 below.
    for (const n of [1, 2, 3]) {
      await putAll(keys.map((pk) => ({ pk, entity: 'parallel', n, sleepMs: 20, ...(n === 1 && { awaitPeers: 2 }) })));
    }
    await runtime.settle();

    const processed = store.streamProcessed.filter((p) => p.consumer === 'ParallelStream' && keys.includes(p.pk));
    for (const pk of keys) {
      const sequence = processed.filter((p) => p.pk === pk).map((p) => BigInt(p.sequenceNumber));
      expect(sequence).toHaveLength(3);
      expect(sequence).toEqual([...sequence].sort((x, y) => (x < y ? -1 : 1)));
    }
    const batches = store.streamInvocations.filter((i) => i.consumer === 'ParallelStream');
    expect(Math.max(...batches.map((i) => i.records.length))).toBeLessThanOrEqual(2);
    expect(store.streamMostConcurrent.get('ParallelStream')).toBeGreaterThan(1);
    expect(store.streamMostConcurrent.get('ParallelStream')).toBeLessThanOrEqual(3);
  });

  it('retries a failed batch on its own partition key while the shard’s other keys go on, in order each', async () => {
    const poisoned = unique('parallel-flaky');
    const others = Array.from({ length: 4 }, () => unique('parallel'));
    await putAll([
      { pk: poisoned, entity: 'parallel', fail: 'once' },
      ...others.map((pk) => ({ pk, entity: 'parallel' })),
    ]);
    await putAll([poisoned, ...others].map((pk) => ({ pk, entity: 'parallel', n: 2 })));
    await runtime.settle();

    const processed = store.streamProcessed.filter((p) => p.consumer === 'ParallelStream');
    for (const pk of [poisoned, ...others]) {
      const sequence = processed.filter((p) => p.pk === pk).map((p) => BigInt(p.sequenceNumber));
      expect(sequence).toHaveLength(2);
      expect(sequence[0]).toBeLessThan(sequence[1] as bigint);
    }
    expect(store.failedOnce.has(poisoned)).toBe(true);
    expect(runtime.streamFailures.filter((f) => f.consumer === 'ParallelStream')).toEqual([]);
  });

  it('replays a batch given up with exactly its records, read again by its range: its own partition keys’, not another lane’s written between them', async () => {
    // ParallelStream splits the shard into 3 lanes by partition key: two keys of one lane, one of another.
    const lanes = partitionedBy({ KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] }, 3);
    const laneOf = (pk: string) => lanes.laneOf({ dynamodb: { Keys: { pk: { S: pk } } } });
    const keyIn = (prefix: string, wanted: (lane: number) => boolean) => {
      for (;;) {
        const pk = unique(prefix);
        if (wanted(laneOf(pk))) return pk;
      }
    };
    const first = unique('parallel-poison');
    const last = keyIn('parallel-poison', (lane) => lane === laneOf(first));
    const other = keyIn('parallel', (lane) => lane !== laneOf(first));
    await putAll([
      { pk: first, entity: 'parallel', fail: 'always' },
      { pk: other, entity: 'parallel' },
      { pk: last, entity: 'parallel', fail: 'always' },
    ]);
    await runtime.settle();
    const failure = runtime.streamFailures.find((f) => f.records.some((record) => keyOf(record) === first));
    if (!failure) throw new Error('ParallelStream gave up no batch');
    expect(failure.records.map(keyOf)).toEqual([first, last]);
    const otherSequence = BigInt(
      recordsOf('ParallelStream').find((record) => keyOf(record) === other)?.dynamodb?.SequenceNumber ?? 0,
    );
    // The batch's range holds the other lane's record, which the consumer got in a batch of its own.
    expect(otherSequence > BigInt(failure.batchInfo.startSequenceNumber)).toBe(true);
    expect(otherSequence < BigInt(failure.batchInfo.endSequenceNumber)).toBe(true);
    const invocationsBefore = store.streamInvocations.length;

    const answer = await api(runtime).post(
      '/local/dead-letters/replay',
      {
        consumer: 'ParallelStream',
        shardId: failure.batchInfo.shardId,
        startSequenceNumber: failure.batchInfo.startSequenceNumber,
      },
      { contract: false },
    );

    // The fixture fails these records always: the replay fails too, and the batch stays given up.
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: 'failed', records: 2 });
    expect(store.streamInvocations.slice(invocationsBefore)).toEqual([
      { consumer: 'ParallelStream', records: failure.records },
    ]);
    expect(runtime.streamFailures).toContain(failure);
  });
});
