import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { ROUTES, type RouteDefinition, routeKey } from '#lib/service/index';
import { MAX_REQUEST_BODY_BYTES, requestBodyBytes } from '#shared/http/body-limit';
import { SCOPES } from '#shared/scopes';
import { ddb, ERROR_BODY_KEYS, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

const harness = useHandlerHarness();

type Handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => Promise<unknown>;

const handlerOf = async (route: RouteDefinition): Promise<Handler> =>
  ((await import(pathToFileURL(resolve(REPO_ROOT, route.handler)).href)) as { handler: Handler }).handler;

const ID = '6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f';

/** A request to `route` with `body`, every path parameter a well-formed id, every scope granted. */
function eventFor(route: RouteDefinition, body: string, isBase64Encoded = false) {
  const pathParameters = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, ID]));
  const event = httpEvent({
    method: route.method,
    path: route.path.replace(/\{\w+\}/g, ID),
    routeKey: routeKey(route),
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    headers: { 'idempotency-key': 'body-limit-key' },
    claims: { client_id: 'partner-a', sub: 'partner-a', scope: SCOPES.join(' ') },
    body,
  });
  return { ...event, isBase64Encoded };
}

/** Valid JSON of exactly `bytes` bytes: a `{"x":"…"}` object padded with spaces. */
const jsonOfSize = (bytes: number) => `{"x":"${'a'.repeat(bytes - 8)}"}`;

describe('request body limit (docs/api.md#limits)', () => {
  it('is 64 KiB', () => {
    expect(MAX_REQUEST_BODY_BYTES).toBe(65_536);
    expect(jsonOfSize(MAX_REQUEST_BODY_BYTES)).toHaveLength(MAX_REQUEST_BODY_BYTES);
  });

  it.each(ROUTES.map((route) => [routeKey(route), route] as const))(
    '%s: a body one byte over the limit answers 413 request_too_large in the contract’s shape and touches no data',
    async (_key, route) => {
      const res = await invoke(await handlerOf(route), eventFor(route, jsonOfSize(MAX_REQUEST_BODY_BYTES + 1)));

      expect(res.statusCode).toBe(413);
      expect(res.body.error_code).toBe('request_too_large');
      expect(typeof res.body.message).toBe('string');
      expect(res.body.request_id).toBe(res.headers['x-request-id']);
      expect(Object.keys(res.body).every((key) => ERROR_BODY_KEYS.includes(key))).toBe(true);
      // Refused before the tenant, the rate limit, idempotency or the handler read anything.
      expect(ddb.calls()).toHaveLength(0);
      expect(harness.rateLimits.taken).toEqual([]);
    },
  );

  it('lets a body of exactly 64 KiB through to validation', async () => {
    const route = ROUTES.find((r) => routeKey(r) === 'POST /verify/accounts') as RouteDefinition;
    const res = await invoke(await handlerOf(route), eventFor(route, jsonOfSize(MAX_REQUEST_BODY_BYTES)));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('unknown_field');
  });

  it('measures a base64 body decoded: 64 KiB of bytes pass, one more byte is refused', async () => {
    const route = ROUTES.find((r) => routeKey(r) === 'POST /verify/accounts') as RouteDefinition;
    const handler = await handlerOf(route);
    const atLimit = Buffer.from(jsonOfSize(MAX_REQUEST_BODY_BYTES)).toString('base64');
    const over = Buffer.from(jsonOfSize(MAX_REQUEST_BODY_BYTES + 1)).toString('base64');
    expect(atLimit.length).toBeGreaterThan(MAX_REQUEST_BODY_BYTES);

    expect((await invoke(handler, eventFor(route, atLimit, true))).statusCode).toBe(400);
    expect((await invoke(handler, eventFor(route, over, true))).statusCode).toBe(413);
  });

  it('counts bytes, not characters: 16,385 four-byte characters are over the limit', () => {
    const text = '😀'.repeat(16_385);
    expect(text.length).toBeLessThan(MAX_REQUEST_BODY_BYTES);
    expect(requestBodyBytes({ body: text, isBase64Encoded: false })).toBeGreaterThan(MAX_REQUEST_BODY_BYTES);
    expect(requestBodyBytes({ body: undefined, isBase64Encoded: false })).toBe(0);
  });
});
