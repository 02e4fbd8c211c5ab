import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type HttpGateway,
  type HttpGatewayOptions,
  INTEGRATION_TIMEOUT_MS,
  loggablePath,
  MAX_BODY_BYTES,
  MAX_HEADER_BYTES,
  startHttpGateway,
} from '#lib/local/gateway/http-gateway';
import { createJwtAuthorizer, type JwtAuthorizer } from '#lib/local/gateway/jwt-authorizer';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import type { LocalEndpoint } from '#lib/local/gateway/local-endpoints';
import type { FunctionDefinition } from '#lib/local/lambda-invoker';
import { silentLog } from '#lib/local/log';
import { deployedRoutes, type RouteDefinition } from '#lib/service/index';
import { headerSectionBytes, padTo, type RawHttpRequest, sendRawHttp } from '#test/support/raw-http';

/** A sandbox administration route: served locally, never deployed. */
const SANDBOX_RESET: RouteDefinition = {
  id: 'ResetSandboxTenant',
  method: 'POST',
  path: '/local/sandbox/{tenant}/reset',
  scopes: ['write:verify-accounts'],
  // Never imported: the invoker below stands in for the function.
  handler: 'functions/local/reset-sandbox-tenant.ts',
  table: { actions: ['Query', 'DeleteItem'] },
  localOnly: true,
};

let issuer: LocalIssuer;
let authorizer: JwtAuthorizer;
let gateway: HttpGateway | undefined;

beforeAll(async () => {
  issuer = await LocalIssuer.generate();
  authorizer = createJwtAuthorizer({ issuer: LOCAL_ISSUER, audience: [LOCAL_AUDIENCE], jwks: issuer.jwks });
});

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/**
 * The gateway on a free port, with an invoker that records each call and answers 202
 * (after `answerAfterMs`, if given).
 */
async function startGateway(
  routes: readonly RouteDefinition[],
  options: Partial<HttpGatewayOptions> & { answerAfterMs?: number } = {},
) {
  const invocations: { fn: FunctionDefinition; event: any }[] = [];
  const { answerAfterMs, ...overrides } = options;
  gateway = await startHttpGateway({
    routes,
    authorizer,
    invoker: {
      invoke: async (fn, event) => {
        invocations.push({ fn, event });
        if (answerAfterMs) await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
        return { statusCode: 202, headers: { 'content-type': 'application/json' }, body: '{"reset":true}' };
      },
    },
    port: 0,
    log: silentLog,
    ...overrides,
  });
  return { url: gateway.url, invocations };
}

describe('local HTTP gateway: local-only routes', () => {
  it('matches and serves a localOnly route, which the AWS stack never deploys', async () => {
    expect(deployedRoutes([SANDBOX_RESET])).toEqual([]);
    const { url, invocations } = await startGateway([SANDBOX_RESET]);
    const token = await issuer.mint({ tenant: 'acme', scopes: ['write:verify-accounts'] });

    const res = await fetch(`${url}/local/sandbox/acme/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });

    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ reset: true });
    expect(invocations).toHaveLength(1);
    expect(invocations[0]).toMatchObject({
      fn: { name: 'ResetSandboxTenant', handler: 'functions/local/reset-sandbox-tenant.ts' },
      event: {
        routeKey: 'POST /local/sandbox/{tenant}/reset',
        rawPath: '/local/sandbox/acme/reset',
        pathParameters: { tenant: 'acme' },
        requestContext: { authorizer: { jwt: { claims: { sub: 'acme' } } } },
      },
    });
  });

  it('puts the JWT authorizer in front of a localOnly route like any other: 401 without a token', async () => {
    const { url, invocations } = await startGateway([SANDBOX_RESET]);

    const res = await fetch(`${url}/local/sandbox/acme/reset`, { method: 'POST' });

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthorized' });
    expect(invocations).toEqual([]);
  });
});

describe('local HTTP gateway: local endpoints (npm start conveniences, outside the API)', () => {
  const seen: { query: string; body: string; baseUrl: string }[] = [];
  const DOCUMENT: LocalEndpoint = {
    id: 'Document',
    method: 'GET',
    path: '/local/sandbox/acme/reset',
    serve: (request) => {
      seen.push({ query: request.query.toString(), body: request.body.toString(), baseUrl: request.baseUrl });
      return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from('served') };
    },
  };

  it('serves an endpoint on its exact path and method without a token, before the routes', async () => {
    seen.length = 0;
    const logged: string[] = [];
    const { url, invocations } = await startGateway([{ ...SANDBOX_RESET, method: 'GET' }], {
      endpoints: [{ ...DOCUMENT, path: '/local/v1/token.json' }],
      log: (_level, message) => logged.push(message),
    });

    const res = await fetch(`${url}/local/v1/token.json?x=1`);

    expect(res.status).toBe(200);
    expect(await res.text()).toBe('served');
    expect(seen).toEqual([{ query: 'x=1', body: '', baseUrl: url }]);
    expect(invocations).toEqual([]);
    // Its own fixed path is logged as it is: it holds no caller data to hide.
    expect(logged).toEqual([expect.stringMatching(/^GET \/local\/v1\/token\.json -> 200 \d+ ms$/)]);
  });

  it('leaves every other method and path to the routes and their authorizer', async () => {
    const { url, invocations } = await startGateway([SANDBOX_RESET], { endpoints: [DOCUMENT] });

    expect((await fetch(`${url}/local/sandbox/acme/reset`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${url}/local/sandbox/acme/reset/`)).status).toBe(404);
    expect(invocations).toEqual([]);
  });
});

describe('local HTTP gateway: API Gateway HTTP API quotas', () => {
  it('has the HTTP API quotas as defaults: 10,240 bytes of request line and headers, 10 MB of payload, 30 s', () => {
    expect(MAX_HEADER_BYTES).toBe(10_240);
    expect(MAX_BODY_BYTES).toBe(10 * 1024 * 1024);
    expect(INTEGRATION_TIMEOUT_MS).toBe(30_000);
  });

  async function requestOfHeaderSize(bytes: number) {
    const { url, invocations } = await startGateway([SANDBOX_RESET]);
    const token = await issuer.mint({ tenant: 'acme', scopes: ['write:verify-accounts'] });
    const host = new URL(url).host;
    const base: RawHttpRequest = {
      method: 'POST',
      path: '/local/sandbox/acme/reset',
      headers: [['authorization', `Bearer ${token}`]],
    };
    const request = padTo(base, host, bytes);
    expect(headerSectionBytes(request, host)).toBe(bytes);
    return { response: await sendRawHttp(url, request), invocations };
  }

  it('serves a request whose request line and headers are exactly 10,240 bytes', async () => {
    const { response, invocations } = await requestOfHeaderSize(MAX_HEADER_BYTES);

    expect(response.status).toBe(202);
    expect(invocations).toHaveLength(1);
  });

  it('answers 431 {"message":"Request Header Fields Too Large"} one byte over, before the route or the token', async () => {
    const { response, invocations } = await requestOfHeaderSize(MAX_HEADER_BYTES + 1);

    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toEqual({ message: 'Request Header Fields Too Large' });
    expect(response.headers['apigw-requestid']).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(invocations).toEqual([]);
  });

  it('answers 431 to a header section far over the quota, above Node’s own 16 KiB limit', async () => {
    const { url, invocations } = await startGateway([SANDBOX_RESET]);
    const response = await sendRawHttp(url, {
      method: 'GET',
      path: '/anywhere',
      headers: [['cookie', `c=${'x'.repeat(40_000)}`]],
    });

    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toEqual({ message: 'Request Header Fields Too Large' });
    expect(invocations).toEqual([]);
  });

  it('answers 413 {"message":"Request Entity Too Large"} to a body over the payload limit, without invoking', async () => {
    const { url, invocations } = await startGateway([SANDBOX_RESET], { maxBodyBytes: 1_000 });
    const token = await issuer.mint({ tenant: 'acme', scopes: ['write:verify-accounts'] });

    const res = await fetch(`${url}/local/sandbox/acme/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: 'x'.repeat(1_001),
    });

    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request Entity Too Large' });
    expect(invocations).toEqual([]);
  });

  it('answers 503 {"message":"Service Unavailable"} when the function outlasts the integration timeout', async () => {
    const { url, invocations } = await startGateway([SANDBOX_RESET], {
      integrationTimeoutMs: 100,
      answerAfterMs: 1_000,
    });
    const token = await issuer.mint({ tenant: 'acme', scopes: ['write:verify-accounts'] });
    const started = performance.now();

    const res = await fetch(`${url}/local/sandbox/acme/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });

    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: 'Service Unavailable' });
    expect(res.headers.get('apigw-requestid')).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(performance.now() - started).toBeLessThan(900);
    expect(invocations).toHaveLength(1);
  });

  it('answers a function that finishes within the integration timeout as usual', async () => {
    const { url } = await startGateway([SANDBOX_RESET], { integrationTimeoutMs: 1_000, answerAfterMs: 50 });
    const token = await issuer.mint({ tenant: 'acme', scopes: ['write:verify-accounts'] });

    const res = await fetch(`${url}/local/sandbox/acme/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });

    expect(res.status).toBe(202);
  });
});

describe('local HTTP gateway: access log', () => {
  it.each([
    ['/verify/accounts/6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f/control', '/verify/accounts/{…}/control'],
    ['/persons/123-45-6789', '/persons/{…}'],
    ['/verify/accounts/73120458963', '/verify/accounts/{…}'],
    ['/webhooks/configurations', '/webhooks/configurations'],
    ['/', '/'],
  ])('logs %s as %s: words only, never an id or what a caller put in its place', (path, logged) => {
    expect(loggablePath(path)).toBe(logged);
  });
});
