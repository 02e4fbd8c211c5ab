import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { ROUTES } from '#lib/service/index';
import { api, clientFor, startTestRuntime } from '#test/integration/harness';

/**
 * docs/api.md#lists: a cold page number may start at most 10,000 entries into a list
 * (`index × size`); a deeper page is refused before anything is read, on every list.
 */
let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
});

afterAll(async () => {
  await runtime?.stop();
});

/** Every list, from the rows: a new list is held to the ceiling without an edit here. */
const LISTS = ROUTES.filter((route) => route.listPositions).map((route) => [route.path, route] as const);

/** A client whose token holds the list's own scopes (an operator's list takes an operator's client and scope). */
const callOf = async (route: (typeof LISTS)[number][1]) =>
  api(runtime, await runtime.mintToken(clientFor(route, 'tenant-page-ceiling'), route.scopes));

describe('the ceiling on a list page', () => {
  it.each(LISTS)(
    'GET %s?index=10000000&size=500 answers 400 invalid_index in the contract shape, naming the limit',
    async (path, route) => {
      const res = await (await callOf(route)).get(`${path}?index=10000000&size=500`);

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
    async (path, route) => {
      const res = await (await callOf(route)).get(`${path}?index=21&size=500`);

      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe('invalid_index');
    },
  );

  it.each(LISTS)(
    'GET %s?index=20&size=500 (10,000 entries before the page) answers the page: its one list, empty',
    async (path, route) => {
      const res = await (await callOf(route)).get(`${path}?index=20&size=500`);

      expect(res.status).toBe(200);
      expect(Object.values(res.body)).toEqual([[]]);
    },
  );

  it('finds the lists among the rows (the cases above are not vacuous)', () => {
    expect(LISTS.length).toBeGreaterThan(0);
  });
});
