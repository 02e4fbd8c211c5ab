import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConsumerDefinition } from '#lib/service/index';
import type { RuntimeLog } from '../log';
import { LocalOutbox } from './local-outbox';
import { LocalQueues, type LocalQueuesOptions } from './local-queues';
import { Activity, type PipelineWorker } from './pipeline-worker';
import { QueueConsumer } from './queue-consumer';
import { ScheduleRunner } from './schedule-runner';
import { StreamCheckpoints } from './stream-checkpoints';
import type { StreamFailure } from './stream-failure';
import { type StreamConsumer, StreamPoller } from './stream-poller';
import { type StreamBatchRef, type StreamReplayAnswer, StreamReplays } from './stream-replays';

// The asynchronous half of the service, run in-process from the consumer list
// (lib/service CONSUMERS): a stream poller per table-stream consumer, the queues with a
// consumer loop per queue consumer, a timer per schedule, and the outbox that stands in
// for SES, and the replays of stream batches given up. The runtime starts `workers` with
// the others and points the handlers' `queue` and `notifier` ports at `queues` and `outbox`.

export interface PipelineTimings {
  /** Pause between polls of a stream that had nothing new. */
  readonly streamPollMs: number;
  /** How often the shard list is described again (also at once whenever a shard ends). */
  readonly shardRefreshMs: number;
  /** Backoff of a failed stream batch: base × 2^(failures − 1), capped at max. */
  readonly streamRetryBaseMs: number;
  readonly streamRetryMaxMs: number;
  /**
   * Multiplies queue visibility timeouts and message delays. Default 1/120: the 180 s
   * visibility timeout becomes 1.5 s, so a failed message is retried within 2 s, and the
   * longest delay (900 s) becomes 7.5 s.
   */
  readonly queueTimeScale: number;
  /**
   * Multiplies message delays only, when set (else `queueTimeScale`). Default 1/1800: the
   * webhook retry schedule (5 s … 10 h, about 18 h in all) runs in about 36 s, so a
   * partner sees a retry within seconds and a dead endpoint give up within a minute.
   */
  readonly queueDelayTimeScale?: number;
}

export const DEFAULT_PIPELINE_TIMINGS: PipelineTimings = {
  streamPollMs: 150,
  shardRefreshMs: 2_000,
  streamRetryBaseMs: 100,
  streamRetryMaxMs: 2_000,
  queueTimeScale: 1 / 120,
  queueDelayTimeScale: 1 / 1800,
};

export const DEFAULT_SETTLE_TIMEOUT_MS = 10_000;

export interface LocalPipelineOptions {
  readonly consumers: readonly ConsumerDefinition[];
  readonly timings?: Partial<PipelineTimings>;
  /** Where the outbox writes emails. */
  readonly outboxDir: string;
  /** Stream checkpoints are kept here (beside a persistent database); in memory when absent. */
  readonly checkpointDir?: string;
  /** The queues' messages are kept in this file (beside a persistent database); in memory when absent. */
  readonly queueJournalPath?: string;
  readonly region: string;
  readonly log: RuntimeLog;
  /** Added to the ERROR line of a move to a dead-letter queue (LocalQueuesOptions.redriveHint). */
  readonly redriveHint?: LocalQueuesOptions['redriveHint'];
  /** Added to the ERROR line of a stream batch given up: how to replay it. */
  readonly replayHint?: (startSequenceNumber: string) => string | undefined;
}

export interface LocalPipeline {
  readonly workers: readonly PipelineWorker[];
  readonly queues: LocalQueues;
  readonly outbox: LocalOutbox;
  /** The on-failure destination of every stream consumer, oldest first. */
  readonly streamFailures: readonly StreamFailure[];
  /**
   * Replays a batch in `streamFailures` to its consumer, read again from the stream by its
   * range (lib/stream-replay/); one replayed in full leaves the list. Rejects with
   * UnknownStreamBatchError when no consumer gave up on a batch there.
   */
  replayStreamFailure(batch: StreamBatchRef): Promise<StreamReplayAnswer>;
  /** Runs a schedule consumer now (after a run in progress); resolves with its result. */
  runSchedule(id: string): Promise<unknown>;
  /**
   * Resolves once the pipeline is at rest: every stream consumer has polled its stream
   * and found nothing new, every queue that has a consumer is empty (no visible, delayed or
   * in-flight message, so failed messages are retried or dead-lettered first), no schedule
   * is running or waiting to try a failed run again, and no work happened meanwhile. A
   * queue without a consumer keeps its messages and does not count. Rejects, naming what is still busy, once `timeoutMs` pass
   * with no batch or schedule finished: a slow machine's pipeline is waited for as long as
   * it makes progress (docs/testing.md#on-a-busy-machine).
   */
  settle(timeoutMs?: number): Promise<void>;
}

export function createLocalPipeline(options: LocalPipelineOptions): LocalPipeline {
  const timings = { ...DEFAULT_PIPELINE_TIMINGS, ...options.timings };
  const { region, log } = options;
  const activity = new Activity();
  const queues = new LocalQueues({
    timeScale: timings.queueTimeScale,
    delayTimeScale: timings.queueDelayTimeScale,
    region,
    log,
    journalPath: options.queueJournalPath,
    redriveHint: options.redriveHint,
  });
  const streamFailures: StreamFailure[] = [];
  const schedules = new Map<string, ScheduleRunner>();
  const streamConsumers: StreamConsumer[] = [];

  const workers = options.consumers.map((consumer): PipelineWorker => {
    const { source } = consumer;
    switch (source.kind) {
      case 'table-stream':
        streamConsumers.push({ ...consumer, source });
        return new StreamPoller(
          { ...consumer, source },
          {
            timings: {
              pollMs: timings.streamPollMs,
              shardRefreshMs: timings.shardRefreshMs,
              retryBaseMs: timings.streamRetryBaseMs,
              retryMaxMs: timings.streamRetryMaxMs,
            },
            checkpoints: new StreamCheckpoints(
              options.checkpointDir && join(options.checkpointDir, `${consumer.id}.json`),
              log,
            ),
            activity,
            failures: streamFailures,
            replayHint: options.replayHint,
          },
        );
      case 'queue':
        return new QueueConsumer({ ...consumer, source }, { queue: queues.queue(source.queue), activity, region });
      case 'schedule': {
        const runner = new ScheduleRunner({ ...consumer, source }, { activity, region });
        schedules.set(consumer.id, runner);
        return runner;
      }
      default:
        return unknownSource(source);
    }
  });
  const replays = new StreamReplays({ consumers: streamConsumers, failures: streamFailures, activity, region });
  workers.push(replays);
  const ids = workers.map((worker) => worker.name);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) throw new Error(`two consumers are named ${duplicate}`);

  return {
    workers,
    queues,
    outbox: new LocalOutbox(options.outboxDir, log),
    streamFailures,
    replayStreamFailure: (batch) => replays.replay(batch),
    runSchedule: (id) => {
      const runner = schedules.get(id);
      if (!runner)
        return Promise.reject(new Error(`no schedule consumer ${id}; there are: ${[...schedules.keys()].join(', ')}`));
      return runner.run();
    },
    settle: (timeoutMs = DEFAULT_SETTLE_TIMEOUT_MS) => settle(workers, activity, timeoutMs),
  };
}

/** A source kind added to ConsumerSource without a worker here fails to compile, and at run time says so. */
function unknownSource(source: never): never {
  throw new Error(`no local worker for consumer source ${JSON.stringify(source)}`);
}

/** See LocalPipeline.settle; exported for its unit test. */
export async function settle(workers: readonly PipelineWorker[], activity: Activity, timeoutMs: number): Promise<void> {
  // The budget runs from the last work done, not from the call: a pipeline slowed by a busy
  // machine keeps finishing batches, or has one in flight (its table calls timing out and
  // retried; it ends by its function's timeout at the latest), and is waited for; one that
  // stops finishing them with none in flight (a message held and never delivered) fails
  // after timeoutMs.
  let seen = activity.count;
  let progressAt = performance.now();
  for (;;) {
    const since = performance.now();
    const workBefore = activity.count;
    for (const worker of workers) worker.wake(); // poll now rather than after the pause
    for (;;) {
      const busy = workers.map((worker) => worker.busy(since)).filter((reason) => reason !== undefined);
      if (busy.length === 0) break;
      if (activity.count !== seen || activity.running > 0) {
        seen = activity.count;
        progressAt = performance.now();
      }
      if (performance.now() - progressAt > timeoutMs)
        throw new Error(`the local pipeline did no work for ${timeoutMs} ms and is not at rest: ${busy.join('; ')}`);
      await sleep(10);
    }
    // Work done during the round (a queue worker writing to the table) may have made more.
    if (activity.count === workBefore) return;
  }
}
