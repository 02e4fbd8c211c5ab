import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { ROUTES, type RouteDefinition, routeKey } from '#lib/service/index';
import { isOperatorScope, SERVICE_SCOPES } from '#shared/scopes';
import { ddb, givenOperator, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/**
 * A route that names an operator scope is the service's operators' alone
 * (docs/api.md#hits-to-review): its handler refuses every client whose alias record does not
 * mark it an operator, whatever scopes its token holds, since a scope is only what an issuer
 * chose to grant (an alias client created outside the stack, another issuer's client). A new
 * operator route is held to it here without an edit.
 */
const harness = useHandlerHarness();

const OPERATOR_ROUTES = ROUTES.filter((route) => route.scopes.some(isOperatorScope));
const ID = '6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f';
const EVERY_SCOPE = SERVICE_SCOPES.map((scope) => `verify-service/${scope}`).join(' ');

type Handler = Parameters<typeof invoke>[0];
const handlerOf = async (route: RouteDefinition): Promise<Handler> =>
  ((await import(pathToFileURL(resolve(REPO_ROOT, route.handler)).href)) as { handler: Handler }).handler;

const eventFor = (route: RouteDefinition, clientId: string) =>
  httpEvent({
    method: route.method,
    path: route.path.replace(/\{\w+\}/g, ID),
    routeKey: routeKey(route),
    pathParameters: route.path.includes('{id}') ? { id: ID } : undefined,
    ...(route.method === 'POST' && { body: {} }),
    claims: { client_id: clientId, sub: clientId, scope: EVERY_SCOPE },
  });

describe('operator routes refuse every client that is not an operator', () => {
  it('finds operator routes among the rows (the cases below are not vacuous)', () => {
    expect(OPERATOR_ROUTES.map(routeKey)).toEqual(['GET /screening/hits', 'POST /screening/hits/{id}/decision']);
  });

  it.each(OPERATOR_ROUTES.map((route) => [routeKey(route), route] as const))(
    '%s: a partner’s client holding every scope, the operators’ too, answers 403 not_an_operator before any input is read',
    async (_key, route) => {
      const res = await invoke(await handlerOf(route), eventFor(route, 'partner-holding-every-scope'));

      expect(res.statusCode).toBe(403);
      expect(res.body.error_code).toBe('not_an_operator');
      // Nothing but the client's alias was read (once per warm container): no record of any tenant.
      const keysRead = ddb.calls().map((call) => String((call.args[0].input as { Key?: { pk?: string } }).Key?.pk));
      expect(keysRead.filter((pk) => pk !== 'CLIENT#partner-holding-every-scope')).toEqual([]);
      expect(harness.rateLimits.taken).toEqual([]);
    },
  );

  it.each(OPERATOR_ROUTES.map((route) => [routeKey(route), route] as const))(
    '%s: an operator’s client gets past the check (to validation, or further)',
    async (_key, route) => {
      givenOperator('ops-every-route');

      const res = await invoke(await handlerOf(route), eventFor(route, 'ops-every-route'));

      expect(res.body?.error_code).not.toBe('not_an_operator');
      expect(res.statusCode).not.toBe(403);
    },
  );
});
