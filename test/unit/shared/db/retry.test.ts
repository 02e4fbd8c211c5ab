import { describe, expect, it } from 'vitest';
import { retryOnConflict } from '#shared/db/retry';
import { concurrentUpdate } from '#shared/db/versioned-update';
import { ConflictError } from '#shared/errors';

describe('retryOnConflict', () => {
  it('runs the step again on a fresh try after a lost optimistic-locking race', async () => {
    let tries = 0;
    const result = await retryOnConflict(
      async () => {
        if (++tries < 3) throw concurrentUpdate();
        return 'done';
      },
      { attempts: 3, jitterMs: 0 },
    );
    expect(result).toBe('done');
    expect(tries).toBe(3);
  });

  it('lets the conflict through after the last attempt', async () => {
    let tries = 0;
    const error = await retryOnConflict(
      async () => {
        tries++;
        throw concurrentUpdate();
      },
      { attempts: 2, jitterMs: 1 },
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(tries).toBe(2);
  });

  it('never retries other errors, other conflicts included', async () => {
    for (const thrown of [new Error('boom'), new ConflictError('duplicate_customer_reference_id', 'taken')]) {
      let tries = 0;
      const error = await retryOnConflict(
        async () => {
          tries++;
          throw thrown;
        },
        { attempts: 5, jitterMs: 0 },
      ).catch((e) => e);
      expect(error).toBe(thrown);
      expect(tries).toBe(1);
    }
  });
});
