// Whether the runtime's DynamoDB Local answers. The supervisor (dynamodb-local.ts) marks it
// down when the process dies and up when a restart answers; the pipeline's workers pause
// while it is down, so a stream batch or a queued message does not use up its retries
// against a database that is not there (in AWS, Lambda's pollers back off the same way
// while DynamoDB or SQS throttle them).

export class Availability {
  private downSince?: number;
  private reason?: string;
  private readonly listeners = new Set<() => void>();

  get available(): boolean {
    return this.downSince === undefined;
  }

  /** Why it is down and since when, for a busy or a status line; undefined while up. */
  get outage(): { readonly reason: string; readonly since: number } | undefined {
    return this.downSince === undefined ? undefined : { reason: this.reason ?? 'down', since: this.downSince };
  }

  markDown(reason: string): void {
    if (this.downSince !== undefined) return;
    this.downSince = Date.now();
    this.reason = reason;
    this.notify();
  }

  markUp(): void {
    if (this.downSince === undefined) return;
    this.downSince = undefined;
    this.reason = undefined;
    this.notify();
  }

  /** Called on every change either way; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
