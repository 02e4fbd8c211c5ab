import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_AUDIENCE, LOCAL_ISSUER } from '#lib/local/gateway/jwt-issuer';
import type { LocalRuntime } from '#lib/local/runtime';
import { ROUTES, type RouteDefinition, routeKey } from '#lib/service/index';
import { SCOPES, SERVICE_SCOPES } from '#shared/scopes';
import { clientFor, OPERATOR, rawRequest, SERVICE_VERSION, startTestRuntime } from '../harness';

/**
 * Every route of the service behind the local gateway's JWT authorizer, which plays API
 * Gateway's: a token that is unsigned, signed by another key or with another algorithm,
 * expired, not yet valid, or for another issuer or audience answers exactly
 * `401 {"message":"Unauthorized"}`; a valid token without the route's scope exactly
 * `403 {"message":"Forbidden"}`; both with a `www-authenticate` challenge. No function runs.
 */
let runtime: LocalRuntime;
const now = () => Math.floor(Date.now() / 1000);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Claims of a token the authorizer accepts, for forging variants of it. */
const goodClaims = (over: JWTPayload = {}): JWTPayload => ({
  iss: LOCAL_ISSUER,
  aud: LOCAL_AUDIENCE,
  sub: 'tenant-tokens',
  client_id: 'tenant-tokens',
  token_use: 'access',
  scope: SCOPES.join(' '),
  iat: now() - 10,
  exp: now() + 3_600,
  ...over,
});

const BAD_TOKENS: Record<string, () => Promise<string>> = {
  'unsigned (alg none)': async () => `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(goodClaims())}.`,
  'unsigned (alg none) naming the issuer’s key': async () =>
    `${b64url({ alg: 'none', typ: 'JWT', kid: runtime.issuer.jwks.keys[0]?.kid })}.${b64url(goodClaims())}.`,
  'signed by another key under the issuer’s kid': async () => {
    const { privateKey } = await generateKeyPair('RS256');
    return new SignJWT(goodClaims())
      .setProtectedHeader({ alg: 'RS256', kid: runtime.issuer.jwks.keys[0]?.kid, typ: 'JWT' })
      .sign(privateKey);
  },
  'signed by another key under its own kid': async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const kid = `other-${(await exportJWK(publicKey)).n?.slice(0, 8)}`;
    return new SignJWT(goodClaims()).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
  },
  'with its payload changed after signing': async () => {
    const [header, , signature] = (await runtime.mintToken('tenant-tokens')).split('.');
    return `${header}.${b64url(goodClaims({ client_id: 'someone-else' }))}.${signature}`;
  },
  'HMAC-signed with the issuer’s public key as secret (algorithm confusion)': async () => {
    const jwk = runtime.issuer.jwks.keys[0];
    const secret = new TextEncoder().encode(JSON.stringify(jwk));
    return new SignJWT(goodClaims()).setProtectedHeader({ alg: 'HS256', kid: jwk?.kid }).sign(secret);
  },
  'expired (exp in the past)': () =>
    runtime.issuer.mint({ tenant: 'tenant-tokens', issuedAt: now() - 7_200, ttlSeconds: 3_600 }),
  'not valid yet (nbf in the future)': () =>
    runtime.issuer.mint({ tenant: 'tenant-tokens', overrides: { nbf: now() + 3_600 } }),
  'issued in the future (iat)': () => runtime.issuer.mint({ tenant: 'tenant-tokens', issuedAt: now() + 3_600 }),
  'without exp': () => runtime.issuer.mint({ tenant: 'tenant-tokens', overrides: { exp: undefined } }),
  'from another issuer': () =>
    runtime.issuer.mint({
      tenant: 'tenant-tokens',
      overrides: { iss: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_elsewhere' },
    }),
  'for another audience': () => runtime.issuer.mint({ tenant: 'tenant-tokens', overrides: { aud: 'another-api' } }),
  'without aud, with a client_id that is no audience': () =>
    runtime.issuer.mint({ tenant: 'tenant-tokens', overrides: { aud: undefined } }),
  'that is no JWT at all': async () => 'not-a-jwt',
};

const tokens: Record<string, string> = {};
let valid: string;
/** The local operator's token, holding the same scopes: an operator route serves no other client. */
let validOperator: string;
const validFor = (route: RouteDefinition) => (clientFor(route, 'tenant-tokens') === OPERATOR ? validOperator : valid);

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  for (const [name, make] of Object.entries(BAD_TOKENS)) tokens[name] = await make();
  // Every scope a route names, the operators' too: each route's own scope gets through.
  valid = await runtime.mintToken('tenant-tokens', SERVICE_SCOPES);
  validOperator = await runtime.mintToken(OPERATOR, SERVICE_SCOPES);
});
afterAll(() => runtime?.stop());

const cases = ROUTES.map((route) => [routeKey(route), route] as const);
const pathOf = (route: RouteDefinition) => route.path.replace(/\{\w+\}/g, '0b5c9a4e-3f1d-4c2a-9e7b-1a2b3c4d5e6f');

function send(route: RouteDefinition, authorization?: string) {
  return rawRequest(runtime, {
    method: route.method,
    path: pathOf(route),
    headers: {
      'service-version': SERVICE_VERSION,
      'content-type': 'application/json',
      ...(authorization !== undefined && { authorization }),
    },
  });
}

describe('the JWT authorizer in front of every route', () => {
  it.each(cases)('%s: a valid token with the route’s scope gets through to the function', async (_key, route) => {
    const res = await send(route, `Bearer ${validFor(route)}`);

    expect([401, 403]).not.toContain(res.status);
    expect(res.headers['x-request-id']).toBe(res.headers['apigw-requestid']);
  });

  it.each(cases)('%s: refuses every bad token with exactly 401 {"message":"Unauthorized"}', async (_key, route) => {
    for (const [name, token] of Object.entries(tokens)) {
      const res = await send(route, `Bearer ${token}`);

      expect(res.status, name).toBe(401);
      expect(res.text, name).toBe('{"message":"Unauthorized"}');
      expect(res.headers['content-type'], name).toBe('application/json');
      expect(res.headers['www-authenticate'], name).toMatch(
        /^Bearer scope="" error="invalid_token" error_description="[^"]+"$/,
      );
      expect(res.headers['x-request-id'], name).toBeUndefined();
    }
  });

  it.each(cases)('%s: a request without a bearer token answers 401 {"message":"Unauthorized"}', async (_key, route) => {
    for (const authorization of [undefined, '', 'Bearer', 'Bearer ', `Basic ${btoa('user:password')}`]) {
      const res = await send(route, authorization);

      expect(res.status, String(authorization)).toBe(401);
      expect(res.text).toBe('{"message":"Unauthorized"}');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
    }
  });

  it.each(cases)(
    '%s: a valid token without the route’s scope answers exactly 403 {"message":"Forbidden"}',
    async (_key, route) => {
      const others = SCOPES.filter((scope) => !route.scopes.includes(scope));
      const res = await send(route, `Bearer ${await runtime.mintToken('tenant-tokens', others)}`);

      expect(res.status).toBe(403);
      expect(res.text).toBe('{"message":"Forbidden"}');
      expect(res.headers['www-authenticate']).toBe(
        `Bearer scope="${route.scopes.join(' ')}" error="insufficient_scope" error_description="the token has none of the scopes ${route.scopes.join(', ')}"`,
      );
      expect(res.headers['x-request-id']).toBeUndefined();
    },
  );

  it('describes a foreign audience in AWS’s own words', async () => {
    const [route] = ROUTES;
    const res = await send(route as RouteDefinition, `Bearer ${tokens['for another audience']}`);

    expect(res.headers['www-authenticate']).toBe(
      'Bearer scope="" error="invalid_token" error_description="the token does not have a valid audience"',
    );
  });
});
