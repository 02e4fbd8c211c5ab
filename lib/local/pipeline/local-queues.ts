import { QUEUE_SETTINGS } from '#lib/service/index';
import { refuseAbandonedWork } from '#shared/abandoned-work';
import { type MessageQueue, QUEUES, type QueueId, type QueueMessage } from '#shared/queue/message-queue';
import { type RuntimeLog, silentLog } from '../log';
import { LocalQueue } from './local-queue';
import { QueueJournal } from './queue-journal';

// In-process stand-ins for the service's SQS standard queues, each with its dead-letter
// queue (LocalQueue, lib/local/pipeline/local-queue.ts). Timeouts and delays are
// multiplied by `timeScale`, so a failed message is retried in about a second instead of
// minutes. Handlers reach them through the `queue` port (`messageQueue()`), which the
// runtime points here. With `journalPath` (DATA_DIR) they are kept on disk
// (lib/local/pipeline/queue-journal.ts).

/** SQS limits, checked here so code that breaks them fails locally as it would in AWS. */
const MAX_DELAY_SECONDS = 900;
const MAX_MESSAGE_BYTES = 1_048_576;

export interface LocalQueuesOptions {
  /** Multiplies visibility timeouts and message delays (1 = as in AWS). */
  readonly timeScale: number;
  /**
   * Multiplies message delays only, when set: a retry schedule of hours (webhook
   * deliveries) can be compressed further than visibility timeouts safely can.
   * @default timeScale
   */
  readonly delayTimeScale?: number;
  readonly region: string;
  readonly now?: () => number;
  /** Told about every message moved to a dead-letter queue (an alarm in AWS). */
  readonly log?: RuntimeLog;
  /**
   * How a person redrives the queue's dead letters, added to the ERROR line of a move
   * (lib/local/dead-letters/hints.ts); asked at each move, as the runtime's URL is known
   * only once its gateway listens.
   */
  readonly redriveHint?: (queue: QueueId) => string | undefined;
  /**
   * Keep the messages in this file (lib/local/pipeline/queue-journal.ts), beside a
   * persistent database, and carry on with them at the next start; in memory when absent.
   */
  readonly journalPath?: string;
}

/**
 * A work queue's dead-letter queue at a glance, for a person: ids, counts and ages, never
 * a body (bodies name tenants and their records).
 */
export interface DeadLetterSummary {
  /** The work queue's id, as `redrive` takes it. */
  readonly queue: QueueId;
  /** The dead-letter queue's name. */
  readonly name: string;
  readonly count: number;
  /** The message sent earliest; absent when the queue is empty. */
  readonly oldest?: {
    readonly messageId: string;
    /** When it was sent to its work queue (a move keeps it, as SQS keeps SentTimestamp), ISO 8601. */
    readonly sentAt: string;
    readonly ageSeconds: number;
    /** Receives it failed before it was moved. */
    readonly receiveCount: number;
  };
}

/** The service's queues (QUEUES, with QUEUE_SETTINGS), behind the MessageQueue port. */
export class LocalQueues implements MessageQueue {
  private readonly queues = new Map<QueueId, { queue: LocalQueue; deadLetterQueue: LocalQueue }>();
  private readonly journal?: QueueJournal;

  constructor(private readonly options: LocalQueuesOptions) {
    this.journal = options.journalPath ? QueueJournal.open(options.journalPath, options.log ?? silentLog) : undefined;
    for (const id of Object.keys(QUEUES) as QueueId[]) {
      const settings = QUEUE_SETTINGS[id];
      const common = { region: options.region, now: options.now, journal: this.journal };
      const deadLetterQueue = new LocalQueue(`${settings.name}DeadLetter`, { ...common, visibilityTimeoutMs: 0 });
      const queue = new LocalQueue(settings.name, {
        ...common,
        visibilityTimeoutMs: this.scaled(settings.visibilityTimeoutSeconds),
        redrive: {
          deadLetterQueue,
          maxReceiveCount: settings.maxReceiveCount,
          onMove: (message) => {
            const hint = options.redriveHint?.(id);
            options.log?.(
              'error',
              `message moved to the dead-letter queue ${deadLetterQueue.name}${hint ? `; ${hint}` : ''}`,
              {
                messageId: message.messageId,
                receiveCount: message.receiveCount,
              },
            );
          },
        },
      });
      this.queues.set(id, { queue, deadLetterQueue });
    }
  }

  /**
   * The MessageQueue port: validates the whole call first, as SendMessageBatch does, and
   * refuses a request's abandoned work as the SQS port does (#shared/abandoned-work).
   */
  async send(queue: QueueId, messages: QueueMessage[]): Promise<void> {
    refuseAbandonedWork(`send to ${queue}`);
    const target = this.queue(queue);
    const ids = new Set(messages.map((message) => message.id));
    if (ids.size !== messages.length) throw new Error(`messages sent to ${queue} must have distinct ids`);
    const prepared = messages.map((message) => {
      const body = JSON.stringify(message.body);
      const delay = message.delaySeconds ?? 0;
      if (body === undefined) throw new Error(`message ${message.id} for ${queue} has no JSON body`);
      if (Buffer.byteLength(body) > MAX_MESSAGE_BYTES)
        throw new Error(`message ${message.id} for ${queue} is too large`);
      if (!Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) {
        throw new Error(
          `message ${message.id} for ${queue}: delaySeconds must be 0–${MAX_DELAY_SECONDS}, got ${delay}`,
        );
      }
      return { body, delayMs: Math.round(delay * 1000 * (this.options.delayTimeScale ?? this.options.timeScale)) };
    });
    target.sendAll(prepared);
  }

  queue(id: QueueId): LocalQueue {
    return this.entry(id).queue;
  }

  /** Moves the dead-letter queue's messages back to the queue (see LocalQueue.redrive). */
  redrive(id: QueueId): number {
    const { queue, deadLetterQueue } = this.entry(id);
    return deadLetterQueue.redrive([queue]);
  }

  /**
   * Every work queue's dead letters, in QUEUES order: the one summary that the start-up
   * lines and the local endpoints (and so the console and `npm run dead-letters`) show.
   */
  deadLetters(): DeadLetterSummary[] {
    const now = (this.options.now ?? Date.now)();
    return [...this.queues].map(([queue, { deadLetterQueue }]) => {
      const messages = deadLetterQueue.contents();
      const [oldest] = messages.toSorted((a, b) => a.sentAt - b.sentAt);
      return {
        queue,
        name: deadLetterQueue.name,
        count: messages.length,
        ...(oldest && {
          oldest: {
            messageId: oldest.messageId,
            sentAt: new Date(oldest.sentAt).toISOString(),
            ageSeconds: Math.floor((now - oldest.sentAt) / 1000),
            receiveCount: oldest.receiveCount,
          },
        }),
      };
    });
  }

  /** Closes the journal, once nothing sends or receives any more (after the workers stopped). */
  close(): void {
    this.journal?.close();
  }

  deadLetterQueue(id: QueueId): LocalQueue {
    return this.entry(id).deadLetterQueue;
  }

  private entry(id: QueueId) {
    const entry = this.queues.get(id);
    if (!entry) throw new Error(`no local queue ${id}`);
    return entry;
  }

  private scaled(seconds: number): number {
    return Math.round(seconds * 1000 * this.options.timeScale);
  }
}
