import type middy from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { IdempotencyScope } from '#shared/db/idempotency/index';
import type { KeepAnswer, KeptAnswer } from '#shared/db/idempotency/kept-answer';
import type { AppError } from '#shared/errors';
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
  /** When it was claimed, and the answer the work's transaction kept with it, if it did (`HandlerRequest.answers`). */
  held?: HeldKey;
  /** How the handler keeps its answer with its work, while the request holds a key. */
  answers?: Answers;
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
  /**
   * Set when the request holds an `Idempotency-Key`: the records that keep the request's
   * answer in the transaction of its work, for a use case to write with it, so a request
   * that did its work always has its answer kept and a retry replays it
   * (`#shared/db/idempotency/kept-answer`).
   */
  answers?: Answers;
}

/** The claim a request holds on its Idempotency-Key, and the answer kept with its work. */
export interface HeldKey {
  readonly claimedAt: Date;
  kept?: HttpResult;
}

/** `HandlerRequest.answers`: the record of an answer, for a use case to write with its work. */
export interface Answers {
  /** The record keeping `answer(result)`, for the result a use case is about to write. */
  of<T>(answer: (result: T) => Reply): KeepAnswer<T>;
  /** The record keeping the answer to `error`, which the use case throws once its work is written. */
  error(error: AppError): KeptAnswer;
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
