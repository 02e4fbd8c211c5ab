// How many batches of one queue Lambda's SQS event source mapping runs at once, as AWS
// documents it for standard queues (docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html):
// five when messages are available; while messages are still available, up to 300 more a
// minute; at most 1,000, or the mapping's maximum concurrency when that is lower; back to
// five when traffic is low. The queue consumer asks it before each receive.

/** The batches a mapping starts with. */
export const SQS_POLLERS_AT_START = 5;
/** Up to 300 more a minute: one every 200 ms. */
export const SQS_POLLER_STEP_MS = 60_000 / 300;
/** The most batches one mapping runs at once. */
export const SQS_POLLERS_AT_MOST = 1_000;

export class PollerScaling {
  private readonly ceiling: number;
  private batches: number;
  private lastStep: number;

  constructor(
    maxConcurrency: number | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.ceiling = Math.min(SQS_POLLERS_AT_MOST, maxConcurrency ?? Number.POSITIVE_INFINITY);
    this.batches = Math.min(SQS_POLLERS_AT_START, this.ceiling);
    this.lastStep = now();
  }

  /** Batches that may run at once now. */
  get limit(): number {
    return this.batches;
  }

  /**
   * Every batch is running and messages are still waiting: one batch more when a step has
   * passed since the last change (0: added now), else the milliseconds until one may be
   * added; undefined at the ceiling.
   */
  backlogged(): number | undefined {
    if (this.batches >= this.ceiling) return undefined;
    const now = this.now();
    const wait = this.lastStep + SQS_POLLER_STEP_MS - now;
    if (wait > 0) return wait;
    this.batches++;
    this.lastStep = now;
    return 0;
  }

  /** A receive found no message waiting: traffic is low, back to the batches it started with. */
  drained(): void {
    this.batches = Math.min(SQS_POLLERS_AT_START, this.ceiling);
    this.lastStep = this.now();
  }
}
