import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthorizer, type JwtAuthorizer } from '#lib/local/gateway/jwt-authorizer';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, LocalIssuer } from '#lib/local/gateway/jwt-issuer';

let issuer: LocalIssuer;
let authorize: JwtAuthorizer;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  issuer = await LocalIssuer.generate();
  authorize = createJwtAuthorizer({
    issuer: LOCAL_ISSUER,
    audience: [LOCAL_AUDIENCE, 'partner-client-id'],
    jwks: issuer.jwks,
  });
});

describe('local JWT authorizer (HTTP API rules)', () => {
  it('accepts a valid token with or without the Bearer prefix', async () => {
    const token = await issuer.mint({ tenant: 'acme' });
    expect(await authorize(`Bearer ${token}`, ['read:persons'])).toMatchObject({
      ok: true,
      claims: { client_id: 'acme' },
    });
    expect(await authorize(token, ['read:persons'])).toMatchObject({ ok: true });
  });

  it('checks client_id against the audience only when the token has no aud, as for Cognito access tokens', async () => {
    const partner = await issuer.mint({ tenant: 'partner-client-id', overrides: { aud: undefined } });
    const stranger = await issuer.mint({ tenant: 'stranger', overrides: { aud: undefined } });
    const wrongAud = await issuer.mint({ tenant: 'partner-client-id', overrides: { aud: 'elsewhere' } });
    expect(await authorize(partner, [])).toMatchObject({ ok: true });
    expect(await authorize(stranger, [])).toMatchObject({ ok: false, statusCode: 401 });
    expect(await authorize(wrongAud, [])).toMatchObject({ ok: false, statusCode: 401 });
  });

  it('requires at least one of the route scopes, from scope or scp', async () => {
    const scoped = await issuer.mint({ tenant: 'acme', scopes: ['read:persons'] });
    const scp = await issuer.mint({ tenant: 'acme', overrides: { scope: undefined, scp: ['write:persons'] } });
    expect(await authorize(scoped, ['read:persons', 'write:persons'])).toMatchObject({ ok: true });
    expect(await authorize(scp, ['write:persons'])).toMatchObject({ ok: true });
    expect(await authorize(scoped, ['write:persons'])).toMatchObject({ ok: false, statusCode: 403 });
  });

  it('refuses tokens issued in the future or without exp', async () => {
    const future = await issuer.mint({ tenant: 'acme', issuedAt: now() + 600 });
    const eternal = await issuer.mint({ tenant: 'acme', overrides: { exp: undefined } });
    expect(await authorize(future, [])).toMatchObject({ ok: false, statusCode: 401 });
    expect(await authorize(eternal, [])).toMatchObject({ ok: false, statusCode: 401 });
  });

  it('refuses non-RSA signatures, as HTTP API authorizers only support RSA', async () => {
    const hmac = await new SignJWT({ iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE, exp: now() + 60 })
      .setProtectedHeader({ alg: 'HS256', kid: issuer.jwks.keys[0]?.kid })
      .sign(new TextEncoder().encode('a-shared-secret-that-is-long-enough'));
    expect(await authorize(hmac, [])).toMatchObject({ ok: false, statusCode: 401 });
  });

  it('refuses an unsigned token (alg none), even one naming the issuer’s key', async () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = {
      iss: LOCAL_ISSUER,
      aud: LOCAL_AUDIENCE,
      client_id: 'acme',
      scope: 'read:persons',
      exp: now() + 60,
    };
    const kid = issuer.jwks.keys[0]?.kid;
    for (const header of [{ alg: 'none' }, { alg: 'none', kid }, { alg: 'None', kid }]) {
      expect(await authorize(`${part(header)}.${part(claims)}.`, ['read:persons'])).toMatchObject({
        ok: false,
        statusCode: 401,
      });
    }
  });

  it('refuses a header without a token and garbage', async () => {
    expect(await authorize(undefined, [])).toMatchObject({ ok: false, statusCode: 401 });
    expect(await authorize('Bearer ', [])).toMatchObject({ ok: false, statusCode: 401 });
    expect(await authorize('Bearer not.a.jwt', [])).toMatchObject({ ok: false, statusCode: 401 });
  });
});
