import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { functionNameOf, type OnFailureRecord, parseOnFailureRecord } from './on-failure-record';
import type { ReplayResult } from './replay-batch';

// `npm run stream:replay -- --queue-url <url>`: every message of a stream mapping's
// on-failure queue is replayed, and deleted once its batch was replayed in full (as SQS's
// move task deletes what it moved); the rest stays, visible again later, for another try.

export interface OnFailureQueuePorts {
  readonly sqs: Pick<SQSClient, 'send'>;
  /** Replays (or, on a dry run, reads) the batch a record names. */
  readonly replay: (record: OnFailureRecord) => Promise<ReplayResult>;
  /** Told a line per message. */
  readonly report: (line: string) => void;
}

/**
 * Messages are hidden this long once received: past any run of the command (each replay
 * is one invocation, 30 s at most for the router), so one whose replay failed is not met
 * again in the same run.
 */
const VISIBILITY_TIMEOUT_SECONDS = 900;

/** Replays the queue's messages until a receive finds none; how many were replayed in full, and not. */
export async function replayOnFailureQueue(
  queueUrl: string,
  ports: OnFailureQueuePorts,
): Promise<{ replayed: number; notReplayed: number }> {
  const tally = { replayed: 0, notReplayed: 0 };
  const seen = new Set<string>();
  for (;;) {
    const { Messages = [] } = await ports.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: VISIBILITY_TIMEOUT_SECONDS,
        // A long poll asks every SQS server, so an empty answer means an empty queue.
        WaitTimeSeconds: 2,
      }),
    );
    const fresh = Messages.filter((message) => !seen.has(message.MessageId ?? ''));
    if (fresh.length === 0) return tally;
    for (const { MessageId = '', ReceiptHandle, Body = '' } of fresh) {
      seen.add(MessageId);
      const done = await replayMessage(MessageId, Body, ports);
      if (done) await ports.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle }));
      tally[done ? 'replayed' : 'notReplayed']++;
    }
  }
}

/** Whether the message's batch was replayed in full; one line of what became of it either way. */
async function replayMessage(id: string, body: string, ports: OnFailureQueuePorts): Promise<boolean> {
  let record: OnFailureRecord;
  try {
    record = parseOnFailureRecord(body);
  } catch (error) {
    ports.report(`message ${id}: ${(error as Error).message}; it stays in the queue`);
    return false;
  }
  ports.report(`message ${id}: ${describeBatch(record)}`);
  const result = await ports.replay(record);
  ports.report(`  ${result.message}${result.kind === 'replayed' ? '; message deleted' : '; it stays in the queue'}`);
  return result.kind === 'replayed';
}

/** The batch a record names, in a line: who gave it up, when, and its range. */
export function describeBatch({ functionArn, timestamp, batch }: OnFailureRecord): string {
  const given = timestamp ? ` given up at ${timestamp}` : '';
  return (
    `${functionNameOf(functionArn)}${given}: shard ${batch.shardId}, ` +
    `sequence ${batch.startSequenceNumber}–${batch.endSequenceNumber}, ${batch.batchSize} record(s)`
  );
}
