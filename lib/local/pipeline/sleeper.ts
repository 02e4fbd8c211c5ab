/**
 * The pause between two polls of a background loop. `wake()` ends the current pause at
 * once (or the next one, if the loop is busy right now), so a new message or a `settle()`
 * call is picked up without waiting out a poll interval; `stop()` ends every later pause
 * too, so a stopping loop never waits.
 */
export class Sleeper {
  private pending?: () => void;
  private woken = false;
  private stopped = false;

  sleep(ms: number): Promise<void> {
    if (this.stopped || this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pending = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.pending = done;
    });
  }

  wake(): void {
    if (this.pending) this.pending();
    else this.woken = true;
  }

  stop(): void {
    this.stopped = true;
    this.wake();
  }
}
