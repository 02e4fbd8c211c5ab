import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { untilAnswered } from '#shared/abandoned-work';
import { noQueryParameters } from '#shared/input-schemas';
import { invocation } from '#shared/invocation';
import { asRequest } from '#shared/tenant-scope';
import { bodyLimit } from './body-limit';
import { idempotency } from './idempotency';
import {
  dataKeys,
  errorMapper,
  handOver,
  type InputSchemas,
  input,
  logCompleted,
  operatorsOnly,
  requestState,
  serviceVersion,
  tenant,
  tenantRateLimit,
} from './middlewares';
import { jsonResult } from './respond';
import type { HandlerRequest, HttpEvent, HttpRequestOf, HttpResult, Reply, RequestState, StackEvent } from './types';

/**
 * Defined when the CDK bundles an API function (`ApiFunction`, IDEMPOTENCY_BUNDLE_CONSTANT):
 * false where the route's method takes no `Idempotency-Key`, whose bundle then leaves the
 * idempotency middleware out; on such a method the middleware would pass every request
 * through untouched. Unbundled (local runtime, tests) it is undefined and every stack has it.
 */
declare const IDEMPOTENCY_IN_BUNDLE: boolean | undefined;

type Out<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

/**
 * An HTTP handler, and the schemas it validates its input with: `request` is what the
 * OpenAPI document (lib/openapi) describes each route's request from, so the document
 * cannot differ from what the handler accepts.
 */
export type HttpHandler = ((event: HttpEvent, context: Context) => Promise<HttpResult>) & {
  readonly request: Readonly<InputSchemas>;
};

/** Who may call a route, beyond what API Gateway checked (its scopes). */
export interface HttpHandlerOptions {
  /**
   * The service's own operators' route (its row names an operator scope): every client whose
   * alias record does not mark it an operator answers 403 `not_an_operator`, whatever scopes
   * its token holds (`operatorsOnly`).
   * @default false
   */
  readonly operatorsOnly?: boolean;
}

/**
 * Every HTTP handler is built here, on the same middleware stack: header normalisation,
 * request id and logger, error mapping, data keys, body size limit, Service-Version, tenant (and,
 * on an operators' route, the operator check), rate limit, input parsing and validation,
 * idempotency (where the method takes a key). The handler function gets validated,
 * typed input and returns a body; one access-log line is written per request. The
 * invocation wrapper puts the Lambda context on the log lines and writes the request's
 * metrics when it ends.
 *
 * @example
 * // functions/persons/handlers/get.ts: GET /persons/{id}
 * import { httpHandler } from '#shared/http/handler';
 * import { personIdParams } from '../path-params';
 * import { presentPerson } from '../present';
 * import { getPerson } from '../read-persons';
 *
 * export const handler = httpHandler({ params: personIdParams }, async ({ tenant, params }) => {
 *   const person = await getPerson(tenant, params.id);
 *   return { body: { person: presentPerson(person) } };
 * });
 */
export function httpHandler<
  BS extends z.core.$ZodType | undefined = undefined,
  QS extends z.core.$ZodType | undefined = undefined,
  PS extends z.core.$ZodType | undefined = undefined,
>(
  schemas: { body?: BS; query?: QS; params?: PS },
  fn: (request: HandlerRequest<Out<BS>, Out<QS>, Out<PS>>) => Promise<Reply>,
  options: HttpHandlerOptions = {},
): HttpHandler {
  // A route without filters still refuses query parameters (docs/decisions.md#unknown-query-parameters-answer-400).
  const request: Readonly<InputSchemas> = Object.freeze({ query: noQueryParameters, ...schemas });
  const stack = middy<StackEvent, HttpResult, Error, Context, RequestState>({
    requestEnd: (request) => logCompleted(request as HttpRequestOf),
  })
    .use(httpHeaderNormalizer())
    .use(requestState())
    .use(errorMapper())
    .use(dataKeys())
    .use(bodyLimit())
    .use(serviceVersion())
    .use(tenant());
  if (options.operatorsOnly) stack.use(operatorsOnly());
  stack.use(tenantRateLimit()).use(input(request));
  // Inline, so that esbuild drops the middleware and its records where the constant is false.
  if (typeof IDEMPOTENCY_IN_BUNDLE === 'undefined' || IDEMPOTENCY_IN_BUNDLE) stack.use(idempotency());
  stack.use(handOver()).handler(async (event, _context, { signal }) => {
    const request = event.validated as HandlerRequest<Out<BS>, Out<QS>, Out<PS>>;
    // Answered 503 when its time runs out, the rest of the work is refused (#shared/abandoned-work).
    const reply = await untilAnswered(signal, () => fn(request));
    return jsonResult(reply.statusCode ?? 200, reply.body, request.requestId, reply.headers);
  });
  // Lambda always passes a context; middy stands in an empty one for a caller that does not.
  // Each request acts for the tenant its token names, from the tenant middleware on (#shared/tenant-scope).
  const handler = invocation<HttpEvent, HttpResult>(
    (event, context) => asRequest(() => stack(event, context as Context)),
    { loadsDataKeys: false },
  );
  return Object.assign(handler, { request });
}
