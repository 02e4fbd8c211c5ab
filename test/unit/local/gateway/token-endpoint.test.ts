import { beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthorizer, type JwtAuthorizer } from '#lib/local/gateway/jwt-authorizer';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import { TOKEN_PATH, tokenEndpoint } from '#lib/local/gateway/token-endpoint';
import { SCOPES } from '#shared/scopes';

const BASE_URL = 'http://127.0.0.1:3000';
const FORM = 'application/x-www-form-urlencoded';

let issuer: LocalIssuer;
let authorizer: JwtAuthorizer;

beforeAll(async () => {
  issuer = await LocalIssuer.generate();
  authorizer = createJwtAuthorizer({ issuer: LOCAL_ISSUER, audience: [LOCAL_AUDIENCE], jwks: issuer.jwks });
});

const basic = (id: string, secret = 'anything') => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function requestToken(body: string, headers: Record<string, string> = {}) {
  const response = await tokenEndpoint(issuer).serve({
    headers: { host: '127.0.0.1:3000', 'content-type': FORM, ...headers },
    query: new URLSearchParams(),
    body: Buffer.from(body),
    baseUrl: BASE_URL,
  });
  return { ...response, json: JSON.parse(response.body.toString()) as Record<string, unknown> };
}

const claimsOf = (jwt: unknown) =>
  JSON.parse(Buffer.from(String(jwt).split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('local token endpoint (Cognito client-credentials stand-in)', () => {
  it('is POST /oauth2/token, the path of a Cognito domain’s token endpoint', () => {
    expect(tokenEndpoint(issuer)).toMatchObject({ method: 'POST', path: '/oauth2/token' });
    expect(TOKEN_PATH).toBe('/oauth2/token');
  });

  it('answers a Basic-authenticated client-credentials request with a Bearer token for the client id as tenant, every scope, that the gateway accepts', async () => {
    const response = await requestToken('grant_type=client_credentials', { authorization: basic('acme', 's3cret') });

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
    expect(response.json).toEqual({ access_token: expect.any(String), expires_in: 43_200, token_type: 'Bearer' });
    expect(claimsOf(response.json.access_token)).toMatchObject({ client_id: 'acme', scope: SCOPES.join(' ') });
    const auth = await authorizer(`Bearer ${response.json.access_token}`, ['write:persons']);
    expect(auth.ok).toBe(true);
  });

  it('takes the client id from the client_id form field when there is no Authorization header, with no secret at all', async () => {
    const response = await requestToken('grant_type=client_credentials&client_id=dev');

    expect(response.statusCode).toBe(200);
    expect(claimsOf(response.json.access_token)).toMatchObject({ sub: 'dev', client_id: 'dev' });
  });

  it('narrows the token to the requested space-separated scopes, also in Cognito’s verify-service/ form', async () => {
    const response = await requestToken(
      `grant_type=client_credentials&client_id=acme&scope=${encodeURIComponent('read:persons verify-service/invoke:webhook')}`,
    );

    expect(response.statusCode).toBe(200);
    expect(claimsOf(response.json.access_token).scope).toBe('read:persons invoke:webhook');
    expect((await authorizer(`Bearer ${response.json.access_token}`, ['write:persons'])).ok).toBe(false);
  });

  it('grants the operators’ review:screening only when asked for, never in the default set', async () => {
    const asked = await requestToken('grant_type=client_credentials&client_id=ops&scope=review:screening');
    expect(asked.statusCode).toBe(200);
    expect(claimsOf(asked.json.access_token).scope).toBe('review:screening');
    expect((await authorizer(`Bearer ${asked.json.access_token}`, ['review:screening'])).ok).toBe(true);

    const byDefault = await requestToken('grant_type=client_credentials&client_id=acme');
    expect(String(claimsOf(byDefault.json.access_token).scope).split(' ')).not.toContain('review:screening');
  });

  it('refuses a scope the service does not have: 400 invalid_scope', async () => {
    const response = await requestToken('grant_type=client_credentials&client_id=acme&scope=read:persons+admin');

    expect(response.statusCode).toBe(400);
    expect(response.json).toMatchObject({ error: 'invalid_scope' });
  });

  it('refuses any grant but client_credentials: 400 unsupported_grant_type', async () => {
    const response = await requestToken('grant_type=authorization_code&code=x&client_id=acme');

    expect(response.statusCode).toBe(400);
    expect(response.json).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it.each([
    ['no grant_type', 'client_id=acme', {}],
    ['a JSON body', '{"grant_type":"client_credentials","client_id":"acme"}', { 'content-type': 'application/json' }],
    ['a parameter given twice', 'grant_type=client_credentials&client_id=acme&client_id=bob', {}],
    [
      'Basic and client_id naming different clients',
      'grant_type=client_credentials&client_id=bob',
      { authorization: basic('acme') },
    ],
    [
      'a Host that is not loopback (DNS rebinding)',
      'grant_type=client_credentials&client_id=acme',
      { host: 'evil.example:3000' },
    ],
  ])('refuses %s: 400 invalid_request, with a description', async (_case, body, headers) => {
    const response = await requestToken(body, headers);

    expect(response.statusCode).toBe(400);
    expect(response.json).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it.each([
    ['no client id', 'grant_type=client_credentials', {}],
    ['a client id that cannot be a tenant', 'grant_type=client_credentials&client_id=TENANT%23acme', {}],
    ['a malformed Basic header', 'grant_type=client_credentials', { authorization: 'Basic !!!' }],
  ])('refuses %s: 401 invalid_client with a Basic challenge', async (_case, body, headers) => {
    const response = await requestToken(body, headers);

    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic');
    expect(response.json).toMatchObject({ error: 'invalid_client' });
  });

  it('accepts the form content type with a charset and a localhost Host', async () => {
    const response = await requestToken('grant_type=client_credentials&client_id=acme', {
      'content-type': `${FORM}; charset=UTF-8`,
      host: 'localhost:3000',
    });

    expect(response.statusCode).toBe(200);
  });
});
