import * as z from 'zod/mini';
import { PARTNER_NAME } from '#lib/context/partners';
import { RESOURCE_SERVER_ID, SCOPES, SERVICE_SCOPES } from '#shared/scopes';
import type { HttpResponse } from './apigw-response';
import { DEFAULT_TOKEN_TTL_SECONDS, type LocalIssuer } from './jwt-issuer';
import { header, isForLoopback, type LocalEndpoint, type LocalRequest } from './local-endpoints';

// `POST /oauth2/token`: a local stand-in for the token endpoint of the Cognito user pool
// (OAuth 2.0 client-credentials grant), taking the same request and giving the same answer,
// so a partner's code gets a token the same way from `npm start` and from AWS.
//
// LOCAL ONLY, NEVER DEPLOYED: any client secret is accepted, and the client id is the
// tenant. Anyone who can reach this port can be any tenant, as with `npm run token`.

export const TOKEN_PATH = '/oauth2/token';

/** RFC 6749 §5.2 codes, as Cognito answers them. */
type OAuthError = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope';

// Only the shape: each parameter at most once, a string. What the values mean is decided
// below, because each rule answers its own OAuth error code.
const tokenRequest = z.object({
  grant_type: z.string({ error: 'grant_type is required' }),
  scope: z.optional(z.string()),
  client_id: z.optional(z.string()),
});

const clientId = z.string().check(z.regex(PARTNER_NAME));

export function tokenEndpoint(issuer: Pick<LocalIssuer, 'mint'>): LocalEndpoint {
  return {
    method: 'POST',
    path: TOKEN_PATH,
    id: 'LocalTokenEndpoint',
    serve: (request) => issueToken(issuer, request),
  };
}

async function issueToken(issuer: Pick<LocalIssuer, 'mint'>, request: LocalRequest): Promise<HttpResponse> {
  // A page that rebound its own name to 127.0.0.1 could read a token from here (isForLoopback).
  if (!isForLoopback(request)) {
    return oauthError('invalid_request', 'the local token endpoint answers only requests for 127.0.0.1 or localhost');
  }
  const contentType = header(request, 'content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    return oauthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(request.body.toString('utf8'));
  const repeated = [...new Set(form.keys())].find((name) => form.getAll(name).length > 1);
  if (repeated) return oauthError('invalid_request', `${repeated} is given more than once`);
  const parsed = tokenRequest.safeParse(Object.fromEntries(form));
  if (!parsed.success) return oauthError('invalid_request', parsed.error.issues[0]?.message ?? 'malformed request');
  const { grant_type, scope, client_id } = parsed.data;
  if (grant_type !== 'client_credentials') {
    return oauthError('unsupported_grant_type', 'only the client_credentials grant is supported');
  }

  const basic = basicCredentials(header(request, 'authorization'));
  if (basic === 'malformed') return oauthError('invalid_client', 'the Authorization header is not valid Basic');
  if (basic && client_id !== undefined && basic !== client_id) {
    return oauthError('invalid_request', 'the client id in the Authorization header and client_id differ');
  }
  const tenant = basic ?? client_id;
  if (tenant === undefined) {
    return oauthError('invalid_client', 'give the client id (the tenant) by HTTP Basic or as client_id');
  }
  if (!clientId.safeParse(tenant).success) {
    return oauthError('invalid_client', 'locally the client id is the tenant: 1-64 letters, digits, "-" or "_"');
  }

  const scopes = requestedScopes(scope);
  if (!Array.isArray(scopes)) return oauthError('invalid_scope', `not a scope of this service: ${scopes.unknown}`);
  return json(200, {
    access_token: await issuer.mint({ tenant, scopes, ttlSeconds: DEFAULT_TOKEN_TTL_SECONDS }),
    expires_in: DEFAULT_TOKEN_TTL_SECONDS,
    token_type: 'Bearer',
  });
}

/**
 * Space-separated, as OAuth has it; absent or blank means every partner scope, as Cognito
 * grants every scope of a partner's app client; an operator scope (`review:screening`) only
 * when asked for, as only an operator's client holds it. Cognito's resource-server form (`verify-service/read:persons`)
 * is accepted too, so the request a partner sends to AWS works here unchanged.
 */
function requestedScopes(scope: string | undefined): string[] | { unknown: string } {
  const words = (scope ?? '').split(' ').filter(Boolean);
  if (words.length === 0) return [...SCOPES];
  const prefix = `${RESOURCE_SERVER_ID}/`;
  const scopes = words.map((word) => (word.startsWith(prefix) ? word.slice(prefix.length) : word));
  const unknown = scopes.find((candidate) => !(SERVICE_SCOPES as readonly string[]).includes(candidate));
  return unknown === undefined ? [...new Set(scopes)] : { unknown };
}

/**
 * The client id of `Authorization: Basic base64(id:secret)` (each part form-encoded, RFC 6749
 * §2.3.1); the secret is not checked. Undefined without such a header.
 */
function basicCredentials(authorization: string | undefined): string | undefined | 'malformed' {
  if (authorization === undefined) return undefined;
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match?.[1]) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return 'malformed';
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return 'malformed';
  }
}

function oauthError(error: OAuthError, description: string): HttpResponse {
  // RFC 6749 §5.2: a failed client authentication is 401 with a challenge.
  const challenge: Record<string, string> = error === 'invalid_client' ? { 'www-authenticate': 'Basic' } : {};
  return json(error === 'invalid_client' ? 401 : 400, { error, error_description: description }, challenge);
}

function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode,
    // RFC 6749 §5.1: a token response is never cached.
    headers: {
      'content-type': 'application/json;charset=UTF-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      ...headers,
    },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  };
}
