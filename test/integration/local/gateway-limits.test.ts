import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES } from '#lib/local/gateway/http-gateway';
import type { LocalRuntime } from '#lib/local/runtime';
import { headerSectionBytes, padTo, type RawHttpRequest, sendRawHttp } from '#test/support/raw-http';
import { FIXTURE_ROUTES } from '../fixtures/routes';
import { api, startTestRuntime } from '../harness';

/**
 * The local runtime refuses what an HTTP API refuses, with API Gateway's own bodies
 * (docs/api.md#limits). The integration timeout is shortened from 30 s so a test can
 * outlast it, but kept a hundred times what the function that finishes in time sleeps: its
 * answer, a cold start included, must not depend on the machine's load.
 */
let runtime: LocalRuntime;
let token: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ routes: FIXTURE_ROUTES, consumers: [], integrationTimeoutMs: 1_000 });
  token = await runtime.mintToken('acme', ['read:verify-accounts']);
});
afterAll(() => runtime?.stop());

describe('API Gateway HTTP API quotas in the local runtime', () => {
  const echo = (): RawHttpRequest => ({
    method: 'GET',
    path: '/echo/1',
    headers: [['authorization', `Bearer ${token}`]],
  });

  it('serves a request line and headers of exactly 10,240 bytes', async () => {
    const host = new URL(runtime.url).host;
    const request = padTo(echo(), host, MAX_HEADER_BYTES);
    expect(headerSectionBytes(request, host)).toBe(MAX_HEADER_BYTES);

    expect((await sendRawHttp(runtime.url, request)).status).toBe(200);
  });

  it('answers 431 {"message":"Request Header Fields Too Large"} to one byte more', async () => {
    const response = await sendRawHttp(runtime.url, padTo(echo(), new URL(runtime.url).host, MAX_HEADER_BYTES + 1));

    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toEqual({ message: 'Request Header Fields Too Large' });
  });

  it('answers 503 {"message":"Service Unavailable"} when a function outlasts the integration timeout', async () => {
    const res = await api(runtime, token).get('/sleeps?ms=3000');

    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: 'Service Unavailable' });
  });

  it('answers a function that finishes in time as usual', async () => {
    const res = await api(runtime, token).get('/sleeps?ms=10');

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ slept: true });
  });
});
