import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '#lib/local/gateway/http-gateway';
import type { LocalRuntime } from '#lib/local/runtime';
import { ROUTES, routeKey } from '#lib/service/index';
import { MAX_REQUEST_BODY_BYTES } from '#shared/http/body-limit';
import { SERVICE_SCOPES } from '#shared/scopes';
import { api, rawRequest, SERVICE_VERSION, startTestRuntime } from '#test/integration/harness';

/**
 * The body limits through the local gateway, on the service's own routes: the service
 * refuses bodies over 64 KiB with the contract's 413, API Gateway (and the local gateway)
 * refuses bodies over 10 MB with its own 413 before any function runs.
 */
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;
let token: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  // Every scope, the operators' too: every route is reached.
  token = await runtime.mintToken('tenant-limits', SERVICE_SCOPES);
  call = api(runtime, token);
});
afterAll(() => runtime?.stop());

const pathOf = (template: string) => template.replace(/\{\w+\}/g, randomUUID());
const jsonOfSize = (bytes: number) => `{"x":"${'a'.repeat(bytes - 8)}"}`;

describe('request body limit through the local gateway', () => {
  it.each(ROUTES.map((route) => [routeKey(route), route] as const))(
    '%s: 64 KiB + 1 byte answers 413 request_too_large with the request id',
    async (_key, route) => {
      // node:http rather than fetch, which will not send a body with GET; API Gateway passes it on.
      const res = await rawRequest(runtime, {
        method: route.method,
        path: pathOf(route.path),
        headers: {
          authorization: `Bearer ${token}`,
          'service-version': SERVICE_VERSION,
          'content-type': 'application/json',
        },
        body: jsonOfSize(MAX_REQUEST_BODY_BYTES + 1),
      });

      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toEqual({
        error_code: 'request_too_large',
        message: expect.any(String),
        request_id: res.headers['apigw-requestid'],
      });
      expect(res.headers['x-request-id']).toBe(res.headers['apigw-requestid']);
    },
  );

  it('measures a binary body after base64 decoding, as API Gateway hands it over encoded', async () => {
    const headers = { 'content-type': 'application/octet-stream' };
    const atLimit = await call.post('/verify/accounts', Buffer.from(jsonOfSize(MAX_REQUEST_BODY_BYTES)), { headers });
    const over = await call.post('/verify/accounts', Buffer.from(jsonOfSize(MAX_REQUEST_BODY_BYTES + 1)), { headers });

    expect(atLimit.status).toBe(400);
    expect(atLimit.body.error_code).toBe('unknown_field');
    expect(over.status).toBe(413);
    expect(over.body.error_code).toBe('request_too_large');
  });

  it('leaves a body over 10 MB to API Gateway: its own 413 body, no function runs', async () => {
    const res = await call.post('/verify/accounts', jsonOfSize(MAX_BODY_BYTES + 1));

    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request Entity Too Large' });
    expect(res.headers['x-request-id']).toBeUndefined();
  });
});
