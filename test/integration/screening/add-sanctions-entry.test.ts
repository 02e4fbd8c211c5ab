import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '../harness';

/**
 * POST /local/sanctions/entries with the whole pipeline: an entry is screened through the
 * screening queue, so a name that folds to nothing must be refused at the door, not
 * dead-lettered after its message fails the worker's schema five times.
 */
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  runtime = await startTestRuntime();
  call = api(runtime, await runtime.mintToken('tenant-sanctions-entries'));
});
afterAll(() => runtime?.stop());

describe('POST /local/sanctions/entries', () => {
  it.each(['.', '  ', '-- , --', '💸'])(
    'refuses the name %j, which folds to nothing: 400 invalid_name, and nothing reaches the screening queue',
    async (name) => {
      const response = await call.post('/local/sanctions/entries', { name });
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe('invalid_name');
      await runtime.settle();
      expect(runtime.queues.deadLetterQueue('screening').contents()).toEqual([]);
    },
  );

  it('takes a name that folds to something, however it is written: 201, screened without a dead letter', async () => {
    const response = await call.post('/local/sanctions/entries', { name: 'NÚÑEZ-ORTIZ, José' });
    expect(response.status).toBe(201);
    await runtime.settle();
    expect(runtime.queues.deadLetterQueue('screening').contents()).toEqual([]);
  });
});
