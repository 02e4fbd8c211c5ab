import type middy from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { IdempotencyScope } from '#shared/db/idempotency/index';
import type { Logger } from '#shared/logger';
import type { Scope } from '#shared/scopes';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

/**
 * What the middlewares learn about a request, kept in middy's `request.internal` (the
 * place middy gives middlewares to share state, as Powertools' idempotency middleware
 * uses it): one object per invocation, typed, never on the Lambda context.
 */
export type RequestState = {
  requestId: string;
  /** API Gateway route key, e.g. `POST /verify/accounts`. */
  route: string;
  logger: Logger;
  /** When the stack started on this request, for the access log's latency. */
  startedAt: number;
  tenant?: string;
  /** Whether the client's alias record marks it one of the service's operators (`operatorsOnly`). */
  operator?: boolean;
  /** The token's client id (`client_id`): who acted, where a record names it (`created_by`). */
  clientId?: string;
  body?: unknown;
  query?: unknown;
  params?: unknown;
  /** The Idempotency-Key this request claimed, to complete or release it. */
  idempotency?: IdempotencyScope;
  /** The claimed key's stable identity and the request's fingerprint (`HandlerRequest.idempotency`). */
  requestIdentity?: { readonly id: string; readonly fingerprint: string };
};

/** The validated request a handler function receives. */
export interface HandlerRequest<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  params: P;
  tenant: string;
  /** The token's client id; a tenant may own several (credential rotation). */
  clientId: string;
  /**
   * The contract's scopes the token grants, without the issuer's prefix. API Gateway has
   * already checked the route's; a route that accepts several (the event log) decides with
   * these what the token may see.
   */
  scopes: readonly Scope[];
  requestId: string;
  /**
   * Set when the request came with an `Idempotency-Key` it holds: `id`, the same on every
   * retry with that key (tenant, route and key under the digest key), for a create to name
   * what it makes by, so that a retry after an answer lost on the way back finds what the
   * first attempt made instead of making it again; `fingerprint`, the request's own (path
   * and body), to tell that retry from another request sent with the key.
   */
  idempotency?: { readonly id: string; readonly fingerprint: string };
}

/**
 * The event as the stack hands it to the handler: API Gateway's, plus the validated
 * request the last middleware attaches (as middy's own parsers hand a parsed body over
 * on the event).
 */
export type StackEvent = HttpEvent & { validated?: HandlerRequest };

export type HttpMiddleware = middy.MiddlewareObj<StackEvent, HttpResult, Error, Context, RequestState>;
export type HttpRequestOf = middy.Request<StackEvent, HttpResult, Error, Context, RequestState>;

/** What a handler gives back: the body is serialized by the stack. */
export interface Reply {
  statusCode?: number;
  body?: unknown;
  headers?: Record<string, string>;
}
