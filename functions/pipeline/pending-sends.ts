import { messageQueue } from '#shared/queue/index';
import type { AddressedMessage, QueueId, QueueMessage } from '#shared/queue/message-queue';

/**
 * The queue messages a stream batch's records ask for, held until the end of the batch and
 * then sent with one `send` per queue (ten messages per SendMessageBatch), instead of a
 * request per record: under load a batch of 50 records costs a few SQS requests, not 50
 * (issue 12). Each queue gets its messages in the order of the records that asked.
 *
 * Holding them moves the point of failure to the end: a refused send fails every record
 * whose messages it carried, and which of them reached the queue is not known. So a failed
 * flush is reported at `earliest`, the first record with a held message, and everything
 * from there is repeated: safe, as every stream action is (functions/shared/stream/rules.ts).
 */
export class PendingSends {
  private readonly queues = new Map<QueueId, { messages: QueueMessage[]; ids: Set<string> }>();
  private first?: string;

  /** The sequence number of the first record with a held message; none while nothing is held. */
  get earliest(): string | undefined {
    return this.first;
  }

  /**
   * Holds the messages of one record, once all its actions succeeded: a record that failed
   * adds nothing, so nothing of it is sent.
   */
  add(sequenceNumber: string, messages: readonly AddressedMessage[]): void {
    for (const { queue, message } of messages) {
      this.first ??= sequenceNumber;
      const held = this.queues.get(queue) ?? { messages: [], ids: new Set<string>() };
      this.queues.set(queue, held);
      held.messages.push({ ...message, id: distinctId(held.ids, message.id) });
    }
  }

  /** Sends everything held, the queues side by side; throws if any queue refuses. */
  async flush(): Promise<void> {
    await Promise.all([...this.queues].map(([queue, { messages }]) => messageQueue().send(queue, messages)));
  }
}

/**
 * Ids must be distinct within one send (SendMessageBatch's rule, which the local queues
 * check), yet one batch can ask twice under one id: two changes of one person, two
 * sanctions entries of one name. The id only names a message in a refusal, so a repeat
 * gets a suffix; its body, which is what the consumer reads, is untouched.
 */
function distinctId(taken: Set<string>, id: string): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}#${n}`;
  taken.add(candidate);
  return candidate;
}
