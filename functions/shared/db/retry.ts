import { ConflictError } from '#shared/errors';

export interface RetryOptions {
  /** Tries in all, the first included. */
  attempts: number;
  /** Before try n + 1, a random pause of up to `jitterMs × n` ms, so racing writers spread out. 0: none. */
  jitterMs: number;
}

/**
 * Runs a read-decide-write step again while it loses an optimistic-locking race
 * (`concurrent_update`), each time on a fresh read. After the last attempt the conflict
 * reaches the caller (a 409 for an API, a retried message for a worker).
 */
export async function retryOnConflict<T>(step: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const concurrent = error instanceof ConflictError && error.code === 'concurrent_update';
      if (!concurrent || attempt >= options.attempts) throw error;
      if (options.jitterMs > 0)
        await new Promise((resolve) => setTimeout(resolve, Math.random() * options.jitterMs * attempt));
    }
  }
}
