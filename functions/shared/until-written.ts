import { setTimeout as sleep } from 'node:timers/promises';
import { isDependencyUnavailable } from './errors';

/** Pause between writes while the table is away: doubling from the first, at most the last. */
const PAUSE_MS = { first: 100, max: 2_000 };
/** Time left for the invocation to answer once the last write is given up. */
const MARGIN_MS = 1_000;

/**
 * Sends a write that records work already done (an idempotent response, a webhook attempt
 * that went out), again and again while the table is throttling or away
 * (`isDependencyUnavailable`, after the SDK's own retries) and the invocation has time:
 * failing now would have the caller, or the queue, do the work a second time. Any other
 * error, or the invocation's time running out, throws as the write would.
 */
export async function untilWritten<T>(write: () => Promise<T>, remainingMs: () => number): Promise<T> {
  for (let pause = PAUSE_MS.first; ; pause = Math.min(pause * 2, PAUSE_MS.max)) {
    try {
      return await write();
    } catch (error) {
      if (!isDependencyUnavailable(error) || remainingMs() - pause < MARGIN_MS) throw error;
      await sleep(pause);
    }
  }
}
