import { createHash, randomUUID } from 'node:crypto';
import { LOCAL_ACCOUNT_ID } from '../aws-account';
import type { QueueChange, QueuedMessage, QueueJournal } from './queue-journal';

/** A message as `receive` hands it out: received at least once, with the handle to delete it by. */
export interface ReceivedMessage extends QueuedMessage {
  readonly firstReceivedAt: number;
  readonly receiptHandle: string;
}

export interface LocalQueueOptions {
  readonly visibilityTimeoutMs: number;
  /** With a dead-letter queue: receives before a message moves there. */
  readonly redrive?: {
    readonly deadLetterQueue: LocalQueue;
    readonly maxReceiveCount: number;
    readonly onMove?: (message: QueuedMessage) => void;
  };
  readonly region: string;
  readonly now?: () => number;
  /** Where changes are recorded, and the messages restored from; in memory only when absent. */
  readonly journal?: QueueJournal;
}

const NONE_HELD: ReadonlySet<string> = new Set();

/**
 * An in-process stand-in for an SQS standard queue, with SQS's rules for what a consumer
 * sees: a received message is hidden for the visibility timeout and comes back unless it
 * is deleted; a message received maxReceiveCount times is moved to the dead-letter queue
 * at its next receive. With a journal (DATA_DIR) every change is on disk before it takes
 * effect, so a restart finds each message as it was: its receive count, its visibility
 * (epoch ms, so a delay or visibility timeout runs on while the runtime is down, as in
 * SQS) and the dead-letter queues' messages.
 */
export class LocalQueue {
  readonly arn: string;
  private messages: QueuedMessage[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  private readonly history: string[] = [];

  constructor(
    readonly name: string,
    private readonly options: LocalQueueOptions,
  ) {
    this.arn = `arn:aws:sqs:${options.region}:${LOCAL_ACCOUNT_ID}:${name}`;
    this.now = options.now ?? Date.now;
    this.messages = options.journal?.restored(name) ?? [];
  }

  /** Every message, in the order they arrived, as they are now. */
  contents(): readonly QueuedMessage[] {
    return [...this.messages];
  }

  /**
   * Every body ever sent to the queue, parsed, oldest first, whether or not it was
   * consumed since: what a test asks when the queue has a consumer ("queued once").
   */
  sentBodies<T = unknown>(): T[] {
    return this.history.map((body) => JSON.parse(body) as T);
  }

  /** The bodies, parsed: what tests usually want to look at. */
  bodies<T = unknown>(): T[] {
    return this.messages.map((message) => JSON.parse(message.body) as T);
  }

  /** Visible, delayed and in-flight messages together. */
  get size(): number {
    return this.messages.length;
  }

  send(body: string, delayMs = 0): QueuedMessage {
    const message = this.newMessage(body, delayMs);
    this.enqueue([message]);
    return message;
  }

  /** Sends several at once, as SendMessageBatch does: one journal write for all of them. */
  sendAll(entries: readonly { readonly body: string; readonly delayMs?: number }[]): QueuedMessage[] {
    const messages = entries.map(({ body, delayMs = 0 }) => this.newMessage(body, delayMs));
    this.enqueue(messages);
    return messages;
  }

  /**
   * Up to `max` visible messages, oldest first, each hidden for the visibility timeout.
   * A message already received maxReceiveCount times goes to the dead-letter queue instead.
   * Messages named in `held` (by id) stay where they are, visible or not.
   */
  receive(max: number, held: ReadonlySet<string> = NONE_HELD): ReceivedMessage[] {
    const now = this.now();
    const { redrive } = this.options;
    const received: ReceivedMessage[] = [];
    const moved: QueuedMessage[] = [];
    const kept: QueuedMessage[] = [];
    for (const message of this.messages) {
      if (received.length >= max || message.visibleAt > now || held.has(message.messageId)) {
        kept.push(message);
      } else if (redrive && message.receiveCount >= redrive.maxReceiveCount) {
        moved.push({ ...message, visibleAt: now, deadLetterQueueSourceArn: this.arn });
      } else {
        const taken: ReceivedMessage = {
          ...message,
          receiveCount: message.receiveCount + 1,
          firstReceivedAt: message.firstReceivedAt ?? now,
          receiptHandle: randomUUID(),
          visibleAt: now + this.options.visibilityTimeoutMs,
        };
        kept.push(taken);
        received.push(taken);
      }
    }
    const changes: QueueChange[] = [];
    if (received.length > 0 || moved.length > 0) {
      changes.push({ queue: this.name, put: received, remove: moved.map((message) => message.messageId) });
    }
    if (redrive && moved.length > 0) changes.push({ queue: redrive.deadLetterQueue.name, put: moved });
    this.record(changes);
    this.messages = kept;
    for (const message of moved) {
      redrive?.deadLetterQueue.add(message);
      redrive?.onMove?.(message);
    }
    return received;
  }

  /** Whether a receive now would get a message: one visible and not in `held`. */
  hasWaiting(held: ReadonlySet<string> = NONE_HELD): boolean {
    const now = this.now();
    return this.messages.some((message) => message.visibleAt <= now && !held.has(message.messageId));
  }

  /** Deletes by the receipt handle of the latest receive; false when it is stale or unknown. */
  delete(receiptHandle: string): boolean {
    return this.deleteAll([receiptHandle]) === 1;
  }

  /** Deletes several at once, as DeleteMessageBatch does; returns how many handles were current. */
  deleteAll(receiptHandles: readonly string[]): number {
    const handles = new Set(receiptHandles);
    const gone = this.messages.filter((message) => message.receiptHandle && handles.has(message.receiptHandle));
    if (gone.length === 0) return 0;
    this.record([{ queue: this.name, remove: gone.map((message) => message.messageId) }]);
    this.messages = this.messages.filter((message) => !gone.includes(message));
    return gone.length;
  }

  /**
   * SQS's StartMessageMoveTask on this dead-letter queue: every message goes back to the
   * queue it came from (`sources`, by ARN), oldest first, as a new message with the same
   * body (a new id and sent time, receive count 0, visible now). Returns how many moved.
   */
  redrive(sources: readonly LocalQueue[]): number {
    const byArn = new Map(sources.map((queue) => [queue.arn, queue]));
    const moves = this.messages.map((message) => {
      const source = message.deadLetterQueueSourceArn && byArn.get(message.deadLetterQueueSourceArn);
      if (!source) throw new Error(`message ${message.messageId} in ${this.name} has no known source queue`);
      const { body, md5OfBody } = message;
      const now = this.now();
      const moved: QueuedMessage = {
        messageId: randomUUID(),
        body,
        md5OfBody,
        sentAt: now,
        receiveCount: 0,
        visibleAt: now,
      };
      return { source, message: moved };
    });
    this.record([
      { queue: this.name, remove: this.messages.map((message) => message.messageId) },
      ...moves.map(({ source, message }) => ({ queue: source.name, put: [message] })),
    ]);
    this.messages = [];
    for (const { source, message } of moves) source.add(message);
    return moves.length;
  }

  /** When the earliest hidden message becomes visible again; undefined for an empty queue. */
  nextVisibleAt(): number | undefined {
    return this.messages.length === 0 ? undefined : Math.min(...this.messages.map((message) => message.visibleAt));
  }

  /** Called on every message that arrives; returns the unsubscribe function. */
  onMessage(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  purge(): void {
    this.record([{ queue: this.name, remove: this.messages.map((message) => message.messageId) }]);
    this.messages = [];
  }

  /** Before the change takes effect: a change the journal cannot hold does not happen. */
  private record(changes: readonly QueueChange[]): void {
    if (changes.length > 0) this.options.journal?.record(changes);
  }

  private newMessage(body: string, delayMs: number): QueuedMessage {
    const sentAt = this.now();
    return {
      messageId: randomUUID(),
      body,
      md5OfBody: createHash('md5').update(body, 'utf8').digest('hex'),
      sentAt,
      receiveCount: 0,
      visibleAt: sentAt + delayMs,
    };
  }

  private enqueue(messages: readonly QueuedMessage[]): void {
    if (messages.length === 0) return;
    this.record([{ queue: this.name, put: messages }]);
    for (const message of messages) {
      this.history.push(message.body);
      this.add(message);
    }
  }

  /** Takes a message whose change is already recorded (a move from another queue). */
  private add(message: QueuedMessage): QueuedMessage {
    this.messages.push(message);
    for (const listener of this.listeners) listener();
    return message;
  }
}
