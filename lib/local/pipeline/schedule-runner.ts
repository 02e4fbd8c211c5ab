import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import type { ConsumerDefinition, ConsumerSource } from '#lib/service/index';
import { LOCAL_ACCOUNT_ID } from '../aws-account';
import type { WorkerContext } from '../background-worker';
import { consumerFunction } from '../lambda-invoker';
import { describeError } from '../log';
import type { Activity, PipelineWorker } from './pipeline-worker';
import { Sleeper } from './sleeper';

// A scheduled consumer (an EventBridge cron rule in AWS). Locally there is no wall-clock
// schedule: it runs every `localEveryMs`, first one interval after start, and on demand
// (`run()`, which tests use). Runs never overlap: a tick that finds a run in progress, or
// the table away (a supervised DynamoDB Local restarting), is skipped, and an on-demand run waits for the current one and then runs afresh. A timed
// run is handed over as EventBridge hands it to Lambda, asynchronously: one that fails is
// tried twice more (`asAsyncInvocation`), and only then logged as failed; the next tick
// runs again.

export type ScheduleDefinition = ConsumerDefinition & {
  readonly source: Extract<ConsumerSource, { kind: 'schedule' }>;
};

/** How often Lambda tries an asynchronous invocation (EventBridge's) again after its function failed. */
export const LAMBDA_ASYNC_RETRIES = 2;

/**
 * Lambda waits about a minute, then two, between those tries; locally, a second. Each
 * scheduled job is a sweep, so a later try does what the failed one would have.
 */
const LOCAL_ASYNC_RETRY_DELAY_MS = 1_000;

/** `run` as an asynchronous invocation: tried again `LAMBDA_ASYNC_RETRIES` times when it fails, after `wait`. */
export async function asAsyncInvocation<T>(run: () => Promise<T>, wait: (ms: number) => Promise<void>): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await run();
    } catch (error) {
      if (retry >= LAMBDA_ASYNC_RETRIES) throw error;
      await wait(LOCAL_ASYNC_RETRY_DELAY_MS);
    }
  }
}

export class ScheduleRunner implements PipelineWorker {
  readonly name: string;
  private readonly sleeper = new Sleeper();
  private context?: WorkerContext;
  private loop?: Promise<void>;
  private stopped = false;
  /** The latest run, settled or not; the next run chains after it. */
  private current: Promise<unknown> = Promise.resolve();
  /** Runs asked for and not finished (the one running and those waiting for it). */
  private unfinished = 0;
  /** A timed run's tries, between them too: the next tick waits for them. */
  private retrying = false;
  private readonly retryWait = new Sleeper();

  constructor(
    private readonly schedule: ScheduleDefinition,
    private readonly options: { readonly activity: Activity; readonly region: string },
  ) {
    this.name = schedule.id;
  }

  start(context: WorkerContext): void {
    this.context = context;
    this.loop = this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.sleeper.stop();
    this.retryWait.stop();
    await this.loop;
    await this.current.catch(() => {});
  }

  wake(): void {
    // Nothing to poll: a settle() must not trigger a run.
  }

  /** While a run is running, and while a failed timed run waits for its next try: that try is work to come. */
  busy(): string | undefined {
    if (this.unfinished > 0) return `schedule ${this.name} is running`;
    return this.retrying ? `schedule ${this.name} waits to try a failed run again` : undefined;
  }

  /** Runs the handler once, after any run in progress; resolves with its result. */
  run(): Promise<unknown> {
    if (!this.context || this.stopped) return Promise.reject(new Error(`schedule ${this.name} is not running`));
    this.unfinished++;
    const run = this.current
      .catch(() => {})
      .then(() => this.options.activity.during(() => this.invoke()))
      .finally(() => {
        this.unfinished--;
      });
    this.current = run;
    return run;
  }

  private get started(): WorkerContext {
    if (!this.context) throw new Error(`schedule ${this.name} is not started`);
    return this.context;
  }

  private async tick(): Promise<void> {
    while (!this.stopped) {
      await this.sleeper.sleep(this.schedule.source.localEveryMs);
      // A run while the table is away would only fail; EventBridge's next tick comes anyway.
      if (this.stopped || this.retrying || this.unfinished > 0 || !this.started.availability.available) continue;
      this.retrying = true;
      asAsyncInvocation(
        () => this.run(),
        (ms) => (this.stopped ? Promise.reject(new Error('stopped')) : this.retryWait.sleep(ms)),
      )
        .catch((error: unknown) => {
          if (this.stopped) return;
          this.context?.log('error', `scheduled run of ${this.name} failed`, { error: describeError(error) });
        })
        .finally(() => {
          this.retrying = false;
        });
    }
  }

  private async invoke(): Promise<unknown> {
    const { invoker, log } = this.started;
    const result = await invoker.invoke(consumerFunction(this.schedule), this.event());
    log('debug', `scheduled run of ${this.name} finished`, { result });
    return result;
  }

  private event(): ScheduledEvent {
    return scheduledEvent(this.name, this.options.region);
  }
}

/** The event an EventBridge schedule rule named `rule` delivers. */
export function scheduledEvent(rule: string, region: string): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: LOCAL_ACCOUNT_ID,
    time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [`arn:aws:events:${region}:${LOCAL_ACCOUNT_ID}:rule/${rule}`],
    detail: {},
  };
}
