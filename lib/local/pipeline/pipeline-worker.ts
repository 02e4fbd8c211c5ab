import type { BackgroundWorker } from '../background-worker';

/**
 * What the pipeline's workers (stream pollers, queue consumers, schedules) share beyond
 * BackgroundWorker: enough for `settle()` to tell when everything has come to rest.
 */
export interface PipelineWorker extends BackgroundWorker {
  /**
   * Why the worker is not at rest, or undefined when it is. `since` is a
   * `performance.now()` time: a poller is at rest only after a poll that began at or after
   * it found nothing, so a write made before `since` cannot be missed.
   */
  busy(since: number): string | undefined;
  /** Poll now instead of at the end of the current pause. */
  wake(): void;
}

/**
 * Counts work done anywhere in the pipeline (invocations, messages sent), and the
 * invocations still running. `settle()` is done only when a whole round of "everyone at
 * rest" saw no new work: work done by one worker (a queue worker writing to the table) may
 * create work for another (the poller). An invocation in flight is work going on, however
 * long a busy machine makes it; it ends by its function's timeout at the latest.
 */
export class Activity {
  private counter = 0;
  private inFlight = 0;
  get count(): number {
    return this.counter;
  }
  /** Invocations started and not yet ended. */
  get running(): number {
    return this.inFlight;
  }
  touch(): void {
    this.counter++;
  }
  /** Runs one invocation, in flight until it ends; its end, failed or not, is work done. */
  async during<T>(invocation: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await invocation();
    } finally {
      this.inFlight--;
      this.touch();
    }
  }
}
