import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '#test/integration/harness';

/**
 * docs/api.md#lists: a cold page number may start at most 10,000 entries into a list
 * (`index × size`); a deeper page is refused before anything is read, on every list.
 */
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  call = api(runtime, await runtime.mintToken('tenant-page-ceiling'));
});

afterAll(async () => {
  await runtime?.stop();
});

const LISTS = [
  ['/verify/accounts', 'accounts'],
  ['/persons', 'persons'],
  ['/events', 'events'],
] as const;

describe('the ceiling on a list page', () => {
  it.each(LISTS)(
    'GET %s?index=10000000&size=500 answers 400 invalid_index in the contract shape, naming the limit',
    async (path) => {
      const res = await call.get(`${path}?index=10000000&size=500`);

      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error_code: 'invalid_index',
        message: expect.stringMatching(/10,000.*start_time/s),
        details: expect.any(Object),
        request_id: expect.any(String),
      });
    },
  );

  it.each(LISTS)(
    'GET %s?index=21&size=500 (10,500 entries before the page) answers 400 invalid_index',
    async (path) => {
      const res = await call.get(`${path}?index=21&size=500`);

      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('invalid_index');
    },
  );

  it.each(LISTS)('GET %s?index=20&size=500 (10,000 entries before the page) answers the page', async (path, key) => {
    const res = await call.get(`${path}?index=20&size=500`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ [key]: [] });
  });
});
