import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';

// The HTTP API JWT authorizer's rules, as AWS documents them:
// - the identity source (Authorization header) holds the token, optionally after `Bearer `;
// - RSA signature by a key of the issuer's JWKS, chosen by `kid`;
// - `iss` equals the configured issuer;
// - `aud` matches one configured audience, or, only when the token has no `aud`,
//   `client_id` does (Cognito access tokens carry no `aud`);
// - `exp` after now, `nbf` and `iat` before now;
// - the token holds at least ONE of the route's scopes (`scope` or `scp`).
// Anything but the scope check fails with 401; the scope check with 403.

export interface JwtAuthorizerConfig {
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly jwks: JSONWebKeySet;
}

export type AuthorizationResult =
  | { readonly ok: true; readonly claims: JWTPayload }
  | { readonly ok: false; readonly statusCode: 401 | 403; readonly reason: string };

export type JwtAuthorizer = (
  authorization: string | undefined,
  routeScopes: readonly string[],
) => Promise<AuthorizationResult>;

const RSA_ALGORITHMS = ['RS256', 'RS384', 'RS512'];

export function createJwtAuthorizer(config: JwtAuthorizerConfig): JwtAuthorizer {
  const keys = createLocalJWKSet(config.jwks);
  return async (authorization, routeScopes) => {
    const token = authorization?.replace(/^bearer\s+/i, '').trim();
    if (!token) return unauthorized('no token in the Authorization header');

    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        algorithms: RSA_ALGORITHMS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return unauthorized(describeVerifyError(error));
    }
    if (typeof claims.iat === 'number' && claims.iat > Date.now() / 1000) {
      return unauthorized('the token was issued in the future');
    }
    // AWS's own wording for this one (its documented example); the others are local.
    if (!audienceMatches(claims, config.audience)) return unauthorized('the token does not have a valid audience');

    const granted = tokenScopes(claims);
    if (routeScopes.length > 0 && !routeScopes.some((scope) => granted.includes(scope))) {
      return { ok: false, statusCode: 403, reason: `the token has none of the scopes ${routeScopes.join(', ')}` };
    }
    return { ok: true, claims };
  };
}

const unauthorized = (reason: string): AuthorizationResult => ({ ok: false, statusCode: 401, reason });

function audienceMatches(claims: JWTPayload, audience: readonly string[]): boolean {
  if (claims.aud !== undefined) {
    const values = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    return values.some((value) => audience.includes(value));
  }
  return typeof claims.client_id === 'string' && audience.includes(claims.client_id);
}

export function tokenScopes(claims: JWTPayload): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((value): value is string => typeof value === 'string');
  return [];
}

/** Shown in the log and `www-authenticate` only; the body is always API Gateway's. */
function describeVerifyError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'the token is not valid yet';
    if (error.claim === 'iss') return 'the token has an invalid issuer';
    return `the token has an invalid ${error.claim} claim`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the token does not have a valid signature';
  if (error instanceof errors.JWKSNoMatchingKey) return 'the token was not signed by a key of the issuer';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the token is not signed with an RSA algorithm';
  return 'the token could not be decoded';
}

/**
 * The `WWW-Authenticate` challenge of a refused request. Only a hint for people debugging a 401/403; clients must not parse it. Laid out as AWS
 * documents the HTTP API authorizer's (`Bearer scope="" error="invalid_token"
 * error_description="the token does not have a valid audience"`); on a 403 `scope` names
 * the route's scopes, as RFC 6750 has it. A request without a token gets the bare
 * challenge, as RFC 6750 asks.
 */
export function challenge(
  auth: { statusCode: 401 | 403; reason: string },
  routeScopes: readonly string[],
  hadToken: boolean,
): string {
  if (!hadToken) return 'Bearer';
  const [error, scope] =
    auth.statusCode === 401 ? ['invalid_token', ''] : ['insufficient_scope', routeScopes.join(' ')];
  return `Bearer scope="${scope}" error="${error}" error_description="${auth.reason}"`;
}
