import type { EmailMessage } from '#domain/notifications';
import type { Notifier } from '#shared/notify/notifier';
import type { MessageQueue, QueueId, QueueMessage } from '#shared/queue/message-queue';
import type { WebhookUrlPolicy } from '#shared/webhook-url/webhook-url-policy';

/** Records what was sent; `failOn` makes a send to that queue throw. */
export class FakeQueue implements MessageQueue {
  readonly sent: { queue: QueueId; message: QueueMessage }[] = [];
  /** How many messages each send call carried. */
  readonly batches: number[] = [];
  failOn?: QueueId;

  async send(queue: QueueId, messages: QueueMessage[]): Promise<void> {
    if (this.failOn === queue) throw new Error(`queue ${queue} is down`);
    this.batches.push(messages.length);
    for (const message of messages) this.sent.push({ queue, message });
  }
}

export class FakeNotifier implements Notifier {
  readonly sent: EmailMessage[] = [];
  async send(message: EmailMessage): Promise<void> {
    this.sent.push(message);
  }
}

/** A URL policy that approves every URL, as if its host resolved to one public address. */
export const approvingUrlPolicy: WebhookUrlPolicy = {
  check: async (url) => ({ ok: true, url: new URL(url), addresses: ['93.184.215.14'] }),
};
