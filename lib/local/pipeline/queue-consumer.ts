import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { ConsumerDefinition, ConsumerSource } from '../../service';
import { LOCAL_ACCOUNT_ID } from '../aws-account';
import type { WorkerContext } from '../background-worker';
import { consumerFunction } from '../lambda-invoker';
import { describeError } from '../log';
import { type BatchOutcome, batchOutcome } from './batch-outcome';
import type { LocalQueue, ReceivedMessage } from './local-queue';
import type { Activity, PipelineWorker } from './pipeline-worker';
import { Sleeper } from './sleeper';

/**
 * Plays a Lambda SQS event source mapping for one consumer: receives up to batchSize
 * visible messages as soon as there are any, invokes the function with a real SQSEvent,
 * deletes what succeeded and leaves the rest (batchItemFailures, or all of them when the
 * function throws or times out) to reappear after the visibility timeout. Redrive to the
 * dead-letter queue is the queue's business (LocalQueue.receive). One batch at a time:
 * Lambda would scale out, but serial delivery keeps local runs easy to follow.
 */
export type QueueConsumerDefinition = ConsumerDefinition & {
  readonly source: Extract<ConsumerSource, { kind: 'queue' }>;
};

/** Longest pause of an empty queue; a new message wakes the consumer at once anyway. */
const IDLE_PAUSE_MS = 1_000;

export class QueueConsumer implements PipelineWorker {
  readonly name: string;
  private readonly sleeper = new Sleeper();
  private context?: WorkerContext;
  private loop?: Promise<void>;
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    private readonly consumer: QueueConsumerDefinition,
    private readonly options: { readonly queue: LocalQueue; readonly activity: Activity; readonly region: string },
  ) {
    this.name = consumer.id;
  }

  start(context: WorkerContext): void {
    this.context = context;
    this.unsubscribe = this.options.queue.onMessage(() => this.sleeper.wake());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.sleeper.stop();
    await this.loop;
  }

  wake(): void {
    this.sleeper.wake();
  }

  /** Until its queue is empty: a failed message is still pending while it is hidden. */
  busy(): string | undefined {
    const { queue } = this.options;
    return queue.size > 0 ? `queue ${queue.name} (consumer ${this.name}) holds ${queue.size} message(s)` : undefined;
  }

  private get started(): WorkerContext {
    if (!this.context) throw new Error(`queue consumer ${this.name} is not started`);
    return this.context;
  }

  private async run(): Promise<void> {
    const { queue } = this.options;
    while (!this.stopped) {
      const batch = queue.receive(this.consumer.source.batchSize);
      if (batch.length > 0) {
        await this.deliver(batch);
        continue;
      }
      const next = queue.nextVisibleAt();
      await this.sleeper.sleep(next === undefined ? IDLE_PAUSE_MS : Math.min(IDLE_PAUSE_MS, next - Date.now()));
    }
  }

  private async deliver(batch: ReceivedMessage[]): Promise<void> {
    const { queue, activity } = this.options;
    const { invoker, log } = this.started;
    const event: SQSEvent = { Records: batch.map((message) => this.record(message)) };
    let outcome: BatchOutcome;
    try {
      const response = await invoker.invoke(consumerFunction(this.consumer), event);
      outcome = batchOutcome(
        response,
        batch.map((message) => message.messageId),
      );
    } catch (error) {
      outcome = { kind: 'all-failed', reason: describeError(error) };
    }
    activity.touch();

    const failed = (message: ReceivedMessage) =>
      outcome.kind === 'all-failed' || (outcome.kind === 'some-failed' && outcome.ids.has(message.messageId));
    queue.deleteAll(batch.filter((message) => !failed(message)).map((message) => message.receiptHandle));
    if (outcome.kind === 'success') {
      log('debug', `${this.name} processed ${batch.length} message(s) from ${queue.name}`);
      return;
    }
    const failures = batch.filter(failed);
    log(
      'warn',
      `${this.name} failed ${failures.length} of ${batch.length} message(s); they return after the visibility timeout`,
      {
        queue: queue.name,
        messages: failures.map((message) => `${message.messageId} (receive ${message.receiveCount})`),
        error: outcome.kind === 'all-failed' ? outcome.reason : 'batchItemFailures',
      },
    );
  }

  /** An SQSRecord as Lambda builds it from a received message. */
  private record(message: ReceivedMessage): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: LOCAL_ACCOUNT_ID,
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
      },
      messageAttributes: {},
      md5OfBody: message.md5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: this.options.queue.arn,
      awsRegion: this.options.region,
    };
  }
}
