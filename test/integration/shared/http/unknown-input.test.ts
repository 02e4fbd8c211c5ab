import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { ROUTES, routeKey } from '#lib/service/index';
import { hitIdOf } from '#shared/db/screening-hits/index';
import { routeCallers, startTestRuntime } from '#test/integration/harness';

/**
 * docs/decisions.md: unknown query parameters answer `400 unknown_parameter` and unknown
 * fields `400 unknown_field`, and the unknown wins over every other error. On every route
 * of the route table, those without filters or without a body included: nothing a
 * caller sends is silently ignored.
 */
let runtime: LocalRuntime;
let callerOf: Awaited<ReturnType<typeof routeCallers>>;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  // Every scope, the operators' too, and the operator's client on an operator route: every route is reached.
  callerOf = await routeCallers(runtime, 'tenant-unknown-input');
});

afterAll(async () => {
  await runtime?.stop();
});

/** An id of the route's own shape for each path parameter (a hit's id addresses tenant, person and listing). */
const idFor = (template: string) =>
  template.startsWith('/screening/hits/')
    ? hitIdOf({ tenant: 'tenant-unknown-input', personId: randomUUID(), list: 'sanctions', entryId: 'SDN-1' })
    : randomUUID();
const pathOf = (template: string) => template.replace(/\{[^}]+\}/g, () => idFor(template));
const takesBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';

describe('unknown input is refused on every route', () => {
  it.each(ROUTES.map((route) => [routeKey(route), route] as const))(
    '%s: an unknown query parameter answers 400 unknown_parameter',
    async (_key, route) => {
      const res = await callerOf(route).request(route.method, `${pathOf(route.path)}?not_a_filter=1`, {
        ...(takesBody(route.method) && { body: {} }),
      });

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: 'unknown_parameter' });
      expect(res.body.message).toContain('not_a_filter');
    },
  );

  it.each(ROUTES.filter((route) => takesBody(route.method)).map((route) => [routeKey(route), route] as const))(
    '%s: an unknown body field answers 400 unknown_field',
    async (_key, route) => {
      const res = await callerOf(route).request(route.method, pathOf(route.path), { body: { not_a_field: 1 } });

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error_code: 'unknown_field' });
      expect(res.body.message).toContain('not_a_field');
    },
  );
});
