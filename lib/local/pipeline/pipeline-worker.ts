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
 * Counts work done anywhere in the pipeline (invocations, messages sent). `settle()` is
 * done only when a whole round of "everyone at rest" saw no new work: work done by one
 * worker (a queue worker writing to the table) may create work for another (the poller).
 */
export class Activity {
  private counter = 0;
  get count(): number {
    return this.counter;
  }
  touch(): void {
    this.counter++;
  }
}
