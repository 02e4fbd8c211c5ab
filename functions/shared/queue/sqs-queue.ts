import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { refuseAbandonedWork } from '#shared/abandoned-work';
import { requireEnv } from '#shared/config';
import { type MessageQueue, QUEUES, type QueueId, type QueueMessage } from './message-queue';

/** SQS accepts at most 10 messages per batch call. */
const SQS_BATCH = 10;

export class SqsMessageQueue implements MessageQueue {
  constructor(private readonly sqs: SQSClient) {}

  async send(queue: QueueId, messages: QueueMessage[]): Promise<void> {
    refuseAbandonedWork(`send to ${queue}`);
    const url = requireEnv(QUEUES[queue].envVar);
    for (let i = 0; i < messages.length; i += SQS_BATCH) {
      const batch = messages.slice(i, i + SQS_BATCH);
      const out = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: batch.map((m, n) => ({
            Id: String(n),
            MessageBody: JSON.stringify(m.body),
            DelaySeconds: m.delaySeconds,
          })),
        }),
      );
      if (out.Failed?.length) {
        const ids = out.Failed.map((f) => batch[Number(f.Id)]?.id).join(', ');
        throw new Error(`SQS refused ${out.Failed.length} message(s) for ${queue}: ${ids}`);
      }
    }
  }
}
