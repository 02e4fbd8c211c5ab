import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { replayOnFailureQueue } from '#lib/stream-replay/on-failure-queue';
import type { OnFailureRecord } from '#lib/stream-replay/on-failure-record';
import type { ReplayResult } from '#lib/stream-replay/replay-batch';

/**
 * `npm run stream:replay -- --queue-url <the on-failure queue>`: every message the queue
 * holds is replayed, and deleted once its batch was replayed in full, as SQS's move task
 * deletes what it moved. What was not replayed stays for the next try.
 */
const sqs = mockClient(SQSClient);
const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/StreamRouterOnFailure';

const body = (startSequenceNumber: string) =>
  JSON.stringify({
    requestContext: { functionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:router' },
    DDBStreamBatchInfo: {
      shardId: 'shardId-1',
      startSequenceNumber,
      endSequenceNumber: startSequenceNumber,
      batchSize: 1,
      streamArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/t/stream/2026-03-01T00:00:00.000',
    },
  });
const message = (id: string, text: string) => ({ MessageId: id, ReceiptHandle: `handle-${id}`, Body: text });

let lines: string[];
beforeEach(() => {
  sqs.reset();
  lines = [];
  sqs
    .on(ReceiveMessageCommand)
    .resolvesOnce({ Messages: [message('m-1', body('100')), message('m-2', body('200')), message('m-3', '{')] })
    .resolves({});
  sqs.on(DeleteMessageCommand).resolves({});
});

const outcomes: Record<string, ReplayResult> = {
  '100': { kind: 'replayed', records: [], message: 'replayed 1 record(s) to router, which processed them' },
  '200': { kind: 'failed', records: [], message: 'replayed 1 record(s) to router, which failed: Unhandled' },
};
const replay = async ({ batch }: OnFailureRecord) => outcomes[batch.startSequenceNumber] as ReplayResult;

describe('replaying the on-failure queue', () => {
  it('replays every message until a receive finds none, and deletes only those replayed in full', async () => {
    const tally = await replayOnFailureQueue(QUEUE_URL, {
      sqs: new SQSClient({}),
      replay,
      report: (line) => lines.push(line),
    });

    expect(tally).toEqual({ replayed: 1, notReplayed: 2 });
    expect(sqs.commandCalls(DeleteMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, ReceiptHandle: 'handle-m-1' },
    ]);
    // Hidden long enough that a message whose replay failed is not met again in the same run.
    expect(sqs.commandCalls(ReceiveMessageCommand)[0]?.args[0].input).toMatchObject({
      QueueUrl: QUEUE_URL,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 900,
      WaitTimeSeconds: 2,
    });
    expect(lines.join('\n')).toContain('replayed 1 record(s) to router, which processed them');
    expect(lines.join('\n')).toContain('which failed: Unhandled');
    expect(lines.join('\n')).toMatch(/message m-3: the on-failure record is not JSON/);
  });

  it('deletes nothing on a dry run, which only reads', async () => {
    const read = async (): Promise<ReplayResult> => ({
      kind: 'read',
      records: [],
      message: 'would replay 1 record(s)',
    });

    const tally = await replayOnFailureQueue(QUEUE_URL, {
      sqs: new SQSClient({}),
      replay: read,
      report: (line) => lines.push(line),
    });

    expect(tally).toEqual({ replayed: 0, notReplayed: 3 });
    expect(sqs.commandCalls(DeleteMessageCommand)).toEqual([]);
  });
});
