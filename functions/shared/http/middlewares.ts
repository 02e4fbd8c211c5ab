import type * as z from 'zod/mini';
import type { BucketPolicy } from '#domain/token-bucket';
import { scopePrefix, tenantsFromClientIds } from '#shared/config';
import { rateLimits } from '#shared/db/rate-limits/index';
import { type ClientAlias, tenants } from '#shared/db/tenants/index';
import { now } from '#shared/dependencies';
import { AppError, ForbiddenError, RateLimitError, retryAfter, ValidationError } from '#shared/errors';
import { ExpiringCache } from '#shared/expiring-cache';
import { prepareDataKeys } from '#shared/invocation';
import { createLogger } from '#shared/logger';
import { grantedScopes } from '#shared/scopes';
import { nameRequestTenant } from '#shared/tenant-scope';
import { parseInput } from '#shared/validation';
import { errorResult } from './respond';
import type { HttpEvent, HttpMiddleware, HttpRequestOf } from './types';

export const SERVICE_VERSION = 'v2022-09-21';

/** Request id (API Gateway's, so partners can quote it), route and a logger carrying both. */
export const requestState = (): HttpMiddleware => ({
  before: (request) => {
    const { event, context } = request;
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    const route = event.routeKey ?? 'unknown';
    Object.assign(request.internal, {
      requestId,
      route,
      logger: createLogger({ request_id: requestId, route }),
      startedAt: performance.now(),
    });
  },
});

/**
 * One access-log line per request with status and latency, written when middy ends the
 * request (its `requestEnd` hook), so replayed idempotent responses, which end the stack
 * early, are logged too.
 */
export function logCompleted({ internal, response }: HttpRequestOf): void {
  if (!internal.logger || !response) return;
  internal.logger.info('request completed', {
    status: response.statusCode,
    latency_ms: Math.round(performance.now() - internal.startedAt),
    replayed: response.headers?.['idempotent-replayed'] === 'true' || undefined,
  });
}

/** The one place errors become responses. 4xx are the caller's; 5xx are logged with their cause. */
export const errorMapper = (): HttpMiddleware => ({
  onError: (request) => {
    const requestId = request.internal.requestId ?? request.context.awsRequestId;
    const logger = request.internal.logger ?? createLogger();
    const response = errorResult(request.error, requestId);
    if (response.statusCode >= 500) logger.error('request failed', { error: request.error });
    else logger.info('request rejected', { error_code: (request.error as AppError).code });
    request.response = response;
  },
});

/**
 * The function's data keys (digest key, field key), loaded once per container before
 * anything digests, seals or opens: behind the error mapper, so a key KMS cannot give
 * answers the contract's 500 with the request id.
 */
export const dataKeys = (): HttpMiddleware => ({
  before: () => prepareDataKeys(),
});

export const serviceVersion = (): HttpMiddleware => ({
  before: ({ event }) => {
    const version = event.headers?.['service-version'];
    if (version === undefined || version === '') {
      throw new ValidationError('version_missing', `the Service-Version header is required (use ${SERVICE_VERSION})`);
    }
    if (version !== SERVICE_VERSION) {
      throw new ValidationError('version_invalid', `Service-Version must be ${SERVICE_VERSION}`);
    }
  },
});

/** How long a warm container keeps a client id's tenant, and a tenant's rate policy. */
const TENANT_CACHE_MS = 5 * 60 * 1000;
/** How long it keeps "no such client": short, so a partner onboarded meanwhile gets in within a minute. */
const UNKNOWN_CLIENT_CACHE_MS = 30 * 1000;
/** Client ids (and tenants) a warm container remembers at most. */
const CACHE_ENTRIES = 1_000;
/** A client id's alias (its tenant, whether it is an operator), or null for a client id that acts for none. */
const aliasCache = new ExpiringCache<ClientAlias | null>(CACHE_ENTRIES);

/**
 * The tenant of the token's `client_id`, through its alias record
 * (docs/api.md#authentication-and-tenants). A token without `client_id` answers
 * 401 `unauthorized` (a `sub` is never a client id); a client id without an alias answers
 * 403 `unknown_client`, unless `TENANTS_FROM_CLIENT_IDS` (set by the local runtime only)
 * makes it its own tenant (never an operator). Both answers are cached per warm container,
 * the negative one briefly, so an unknown client's requests cost no read each. The rest of
 * the request acts for the tenant (`nameRequestTenant`, #shared/tenant-scope); whether the
 * alias marks an operator is kept for `operatorsOnly`.
 */
export const tenant = (): HttpMiddleware => ({
  before: async ({ event, internal }) => {
    const clientId = event.requestContext?.authorizer?.jwt?.claims?.client_id;
    if (typeof clientId !== 'string' || clientId === '') {
      throw new AppError(401, 'unauthorized', 'the token names no client (it has no client_id claim)');
    }
    const alias = await aliasOfClient(clientId);
    if (alias === null) {
      throw new AppError(
        403,
        'unknown_client',
        'the token’s client is not registered with this service for any partner',
      );
    }
    internal.tenant = alias.tenant;
    internal.operator = alias.operator;
    internal.clientId = clientId;
    nameRequestTenant(alias.tenant);
    internal.logger = internal.logger.child({ tenant: alias.tenant });
  },
});

async function aliasOfClient(clientId: string): Promise<ClientAlias | null> {
  const at = Date.now();
  const cached = aliasCache.get(clientId, at);
  if (cached !== undefined) return cached;
  const alias =
    (await tenants().aliasOf(clientId)) ?? (tenantsFromClientIds() ? { tenant: clientId, operator: false } : null);
  aliasCache.set(clientId, alias, alias === null ? UNKNOWN_CLIENT_CACHE_MS : TENANT_CACHE_MS, at);
  return alias;
}

/**
 * The routes of the service's own operators (docs/api.md#hits-to-review): a client whose
 * alias record does not mark it an operator answers 403 `not_an_operator`, whatever scopes
 * its token holds. A scope says only what an issuer chose to grant: a partner's client
 * created outside the stack, or any client of an external issuer, may be given
 * `review:screening`; the mark is written by the stack alone (context `operators`), on a
 * kind of record every other role is denied. Refused before anything else is read.
 */
export const operatorsOnly = (): HttpMiddleware => ({
  before: ({ internal }) => {
    if (internal.operator !== true) {
      throw new ForbiddenError(
        'not_an_operator',
        'this route is for the service’s operators only, and the token’s client is not registered as one',
      );
    }
  },
});

const policyCache = new ExpiringCache<BucketPolicy>(CACHE_ENTRIES);

/**
 * Per-tenant fairness (docs/api.md#rate-limits): every request takes a token from its
 * tenant's bucket, or from the tokens this warm container leased from it in the last
 * second; an empty bucket answers 429 `too_many_requests` with `Retry-After`, so one
 * partner cannot starve the others. The tenant's policy is cached like its alias.
 */
export const tenantRateLimit = (): HttpMiddleware => ({
  before: async ({ internal }) => {
    const tenant = internal.tenant as string;
    const at = now();
    let policy = policyCache.get(tenant, at.getTime());
    if (policy === undefined) {
      policy = await tenants().ratePolicyOf(tenant);
      policyCache.set(tenant, policy, TENANT_CACHE_MS, at.getTime());
    }
    const result = await rateLimits().take(tenant, policy, at);
    if (!result.allowed) {
      throw new RateLimitError(
        'too_many_requests',
        `this client sent more than ${policy.burst} requests at once or ${policy.ratePerSecond} per second; retry after ${result.retryAfterSeconds} s`,
        ...retryAfter(result.retryAfterSeconds),
      );
    }
  },
});

export interface InputSchemas {
  body?: z.core.$ZodType;
  query?: z.core.$ZodType;
  params?: z.core.$ZodType;
}

/** JSON body parsing and zod validation of body, query string and path parameters. */
export const input = (schemas: InputSchemas): HttpMiddleware => ({
  before: ({ event, internal }) => {
    if (schemas.params) internal.params = parseInput(schemas.params, event.pathParameters ?? {}, 'path');
    if (schemas.query) internal.query = parseInput(schemas.query, queryObject(event.rawQueryString), 'query');
    if (schemas.body) internal.body = parseInput(schemas.body, jsonBody(event), 'body');
  },
});

/** Last before the handler: hands it the validated request on the event. */
export const handOver = (): HttpMiddleware => ({
  before: ({ event, internal }) => {
    const claims = event.requestContext?.authorizer?.jwt?.claims ?? {};
    event.validated = {
      body: internal.body,
      query: internal.query,
      params: internal.params,
      tenant: internal.tenant as string,
      clientId: internal.clientId as string,
      scopes: grantedScopes(claims.scope ?? claims.scp, scopePrefix()),
      requestId: internal.requestId,
      ...(internal.requestIdentity && { idempotency: internal.requestIdentity }),
    };
  },
});

function jsonBody(event: HttpEvent): unknown {
  const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ValidationError('invalid_json', 'the request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ValidationError('invalid_json', 'the request body must be a JSON object');
  }
  return parsed;
}

/**
 * Query parameters from the raw query string, because API Gateway's
 * `queryStringParameters` joins repeated parameters with commas. A parameter given once
 * is a string, one given several times an array.
 */
export function queryObject(rawQueryString: string | undefined): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString ?? '')) {
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}
