import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { type BatchOutcome, batchOutcome } from '#lib/event-source-mapping/batch-outcome';
import type { ConsumerDefinition, ConsumerSource } from '#lib/service/index';
import { LOCAL_ACCOUNT_ID } from '../aws-account';
import type { WorkerContext } from '../background-worker';
import { consumerFunction } from '../lambda-invoker';
import { describeError } from '../log';
import type { LocalQueue, ReceivedMessage } from './local-queue';
import type { Activity, PipelineWorker } from './pipeline-worker';
import { PollerScaling } from './poller-scaling';
import { Sleeper } from './sleeper';

// Plays a Lambda SQS event source mapping for one consumer: receives up to batchSize
// visible messages as soon as there are any, invokes the function with a real SQSEvent,
// deletes what succeeded and leaves the rest (batchItemFailures, or all of them when the
// function throws or times out) to reappear after the visibility timeout. Redrive to the
// dead-letter queue is the queue's business (LocalQueue.receive).
//
// Several batches at once, as many as Lambda's SQS pollers would run (./poller-scaling.ts):
// five, one more every 200 ms while messages still wait behind them, up to the row's
// maxConcurrency, and five again once the queue is drained. Five at most held a burst of
// webhook deliveries in the queue for seconds while the table had room to spare. SQS
// standard queues promise no order, and each consumer is safe to run twice on the same
// message, so batches side by side change nothing else.
//
// A message is never handed to a second batch while its first is still running. In AWS the
// visibility timeout (at least 6× the function's timeout) sees to that; locally it is
// compressed (queueTimeScale) below an invocation's length, so the consumer holds its
// in-flight messages back itself.

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
  private readonly inFlight = new Set<Promise<void>>();
  /** Ids of the messages in those batches. */
  private readonly held = new Set<string>();
  private readonly scaling: PollerScaling;

  constructor(
    private readonly consumer: QueueConsumerDefinition,
    private readonly options: {
      readonly queue: LocalQueue;
      readonly activity: Activity;
      readonly region: string;
      /** The scaling's clock, in ms: `performance.now` unless a test stops it. */
      readonly now?: () => number;
    },
  ) {
    this.name = consumer.id;
    this.scaling = new PollerScaling(consumer.source.maxConcurrency, options.now);
  }

  start(context: WorkerContext): void {
    this.context = context;
    const unsubscribers = [
      this.options.queue.onMessage(() => this.sleeper.wake()),
      context.availability.onChange(() => this.sleeper.wake()),
    ];
    this.unsubscribe = () => {
      for (const unsubscribe of unsubscribers) unsubscribe();
    };
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
      // While the table is away: a message received now would fail and use up one of its
      // receives for nothing (the table coming back wakes the loop).
      if (!this.started.availability.available) {
        await this.sleeper.sleep(IDLE_PAUSE_MS);
        continue;
      }
      if (this.inFlight.size >= this.scaling.limit) {
        // Every batch running: one more once a step has passed, if messages still wait;
        // otherwise until a batch ends (it wakes the loop).
        const step = queue.hasWaiting(this.held) ? this.scaling.backlogged() : undefined;
        if (step !== 0) await this.sleeper.sleep(step ?? IDLE_PAUSE_MS);
        continue;
      }
      const batch = queue.receive(this.consumer.source.batchSize, this.held);
      if (batch.length > 0) {
        for (const message of batch) this.held.add(message.messageId);
        const delivery: Promise<void> = this.deliver(batch)
          .catch((error) => this.context?.log('warn', `${this.name} could not complete a batch`, { error }))
          .finally(() => {
            for (const message of batch) this.held.delete(message.messageId);
            this.inFlight.delete(delivery);
            this.sleeper.wake();
          });
        this.inFlight.add(delivery);
        continue;
      }
      this.scaling.drained();
      const next = queue.nextVisibleAt();
      await this.sleeper.sleep(next === undefined ? IDLE_PAUSE_MS : Math.min(IDLE_PAUSE_MS, next - Date.now()));
    }
    await Promise.all(this.inFlight);
  }

  private async deliver(batch: ReceivedMessage[]): Promise<void> {
    const { queue, activity } = this.options;
    const { invoker, log } = this.started;
    const event: SQSEvent = { Records: batch.map((message) => this.record(message)) };
    let outcome: BatchOutcome;
    try {
      const response = await activity.during(() => invoker.invoke(consumerFunction(this.consumer), event));
      outcome = batchOutcome(
        response,
        batch.map((message) => message.messageId),
      );
    } catch (error) {
      outcome = { kind: 'all-failed', reason: describeError(error) };
    }

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
