import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import { SCOPES } from '#shared/scopes';

let issuer: LocalIssuer;
const decode = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

beforeAll(async () => {
  issuer = await LocalIssuer.generate();
});

describe('local JWT issuer', () => {
  it('mints Cognito-like client-credentials access tokens, with every scope by default', async () => {
    const claims = decode(await issuer.mint({ tenant: 'acme' }));
    expect(claims).toMatchObject({
      iss: LOCAL_ISSUER,
      aud: LOCAL_AUDIENCE,
      sub: 'acme',
      client_id: 'acme',
      token_use: 'access',
      scope: SCOPES.join(' '),
    });
    expect(claims.exp).toBe((claims.iat as number) + 12 * 60 * 60);
    expect(claims.jti).toEqual(expect.any(String));
  });
});
