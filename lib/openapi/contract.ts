import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { REPO_ROOT } from '#lib/repo-root';
import { GATEWAY_ERRORS, type GatewayError } from '#lib/service/gateway-errors';
import type { RouteDefinition } from '#lib/service/index';
import type { HttpHandler } from '#shared/http/handler';
import type { InputSchemas } from '#shared/http/middlewares';
import { IDEMPOTENT_METHODS } from '#shared/http/table-access';
import { controlErrorResponse, errorResponse } from '#shared/openapi-responses';
import { type CodeList, ERROR_CODES, type ErrorCode, inputErrorCodes } from './error-codes';
import type { Example } from './examples/example';
import { OPERATIONS, type OperationSpec } from './operations';

// The contract of one route: its handler's request schemas and every answer it can get,
// each with the zod schema that parses its body. The OpenAPI document (document.ts) is
// written from this, and the integration tests parse every real response with it
// (test/integration/harness.ts), so what is documented is what is answered.

/** What one answer's body can be: a schema of the service, its error body, or API Gateway's own. */
export type BodyVariant =
  | { readonly kind: 'schema'; readonly schema: z.core.$ZodType }
  | { readonly kind: 'error'; readonly codes: CodeList; readonly control: boolean }
  | { readonly kind: 'gateway'; readonly error: GatewayError };

export type HeaderName =
  | 'x-request-id'
  | 'retry-after'
  | 'cache-control'
  | 'idempotent-replayed'
  | 'www-authenticate'
  | 'link';

export interface ResponseSpec {
  readonly status: number;
  readonly description: string;
  /** None: the answer has no body. Several: it is one of them (`oneOf`). */
  readonly variants: readonly BodyVariant[];
  /** Headers the answer carries, and whether always. */
  readonly headers: Readonly<Partial<Record<HeaderName, { readonly required: boolean }>>>;
  readonly examples?: Readonly<Record<string, Example>>;
}

export interface RouteContract {
  readonly route: RouteDefinition;
  readonly operation: OperationSpec;
  /** The schemas the handler validates with (`handler.request`). */
  readonly request: Readonly<InputSchemas>;
  readonly responses: readonly ResponseSpec[];
}

/** The schemas a route's handler validates with: what its module's `handler.request` holds. */
export async function requestSchemasOf(route: RouteDefinition): Promise<Readonly<InputSchemas>> {
  const module = (await import(pathToFileURL(resolve(REPO_ROOT, route.handler)).href)) as { handler?: HttpHandler };
  const request = module.handler?.request;
  if (!request) throw new Error(`${route.handler}: its handler is not built with httpHandler (no handler.request)`);
  return request;
}

export async function routeContract(route: RouteDefinition): Promise<RouteContract> {
  const operation = OPERATIONS[route.id];
  if (!operation) throw new Error(`route ${route.id} has no entry in lib/openapi/operations/<area>.ts`);
  const request = await requestSchemasOf(route);
  return { route, operation, request, responses: responsesOf(route, operation, request) };
}

export const routeContracts = (routes: readonly RouteDefinition[]): Promise<RouteContract[]> =>
  Promise.all(routes.map(routeContract));

const codeList = (codes: readonly ErrorCode[]): CodeList => new Map(codes.map((code) => [code, ERROR_CODES[code]]));

const joined = (...lists: CodeList[]): CodeList => new Map(lists.flatMap((list) => [...list]));

const service = (codes: CodeList, control = false): BodyVariant => ({ kind: 'error', codes, control });
const gateway = (error: GatewayError): BodyVariant => ({ kind: 'gateway', error });

function responsesOf(
  route: RouteDefinition,
  operation: OperationSpec,
  request: Readonly<InputSchemas>,
): ResponseSpec[] {
  const idempotent = IDEMPOTENT_METHODS.includes(route.method);
  const input = inputErrorCodes(request, operation.bodyCompletion);
  const own = (status: 400 | 403 | 404 | 409 | 429) => codeList(operation.errors?.[status] ?? []);
  const replayable = idempotent ? { 'idempotent-replayed': { required: false } } : {};
  const fromService = { 'x-request-id': { required: true }, ...replayable };
  const fromEither = { 'x-request-id': { required: false } };
  const { success } = operation;

  const responses: ResponseSpec[] = [
    {
      status: success.status,
      description: success.description,
      variants: success.body ? [{ kind: 'schema', schema: success.body }] : [],
      headers: {
        ...fromService,
        ...(success.noStore && { 'cache-control': { required: true } }),
        // A list's full page links the next by cursor (docs/api.md#cursors).
        ...(route.listPositions && { link: { required: false } }),
      },
      examples: success.examples,
    },
    {
      status: 400,
      description: 'The request is malformed or breaks a rule: the code names the first failing field.',
      variants: [
        service(
          joined(
            codeList([
              'version_missing',
              'version_invalid',
              ...(idempotent ? (['invalid_idempotency_key'] as const) : []),
            ]),
            input.badRequest,
            own(400),
          ),
          route.id === 'VerifyAccountControl',
        ),
      ],
      headers: fromService,
      examples: operation.errorExamples?.[400],
    },
    {
      status: 401,
      description:
        'API Gateway: no token, or a malformed, expired or foreign one (its own body). The service: a token naming no client.',
      variants: [gateway('unauthorized'), service(codeList(['unauthorized']))],
      headers: { ...fromEither, 'www-authenticate': { required: false } },
    },
  ];
  const forbidden = own(403);
  responses.push({
    status: 403,
    description: `API Gateway: the token has none of the route’s scopes (its \`security\`). The service: the token’s client acts for no partner${forbidden.has('not_an_operator') ? ', or is not one of the service’s operators' : ''}${forbidden.has('insufficient_scope') ? ', or the token’s scopes do not read what was asked' : ''}.`,
    variants: [gateway('forbidden'), service(joined(codeList(['unknown_client']), forbidden))],
    headers: { ...fromEither, 'www-authenticate': { required: false } },
  });
  const notFound = joined(input.notFound, own(404));
  if (notFound.size > 0) {
    responses.push({
      status: 404,
      description: 'No such record of this tenant.',
      variants: [service(notFound)],
      headers: fromService,
    });
  }
  const conflict = joined(codeList(idempotent ? ['idempotency_key_in_use'] : []), own(409));
  if (conflict.size > 0) {
    responses.push({
      status: 409,
      description:
        'The request conflicts with the current state; `idempotency_key_in_use` says with `Retry-After` when the first request’s hold on the key lapses.',
      variants: [service(conflict)],
      headers: idempotent ? { ...fromService, 'retry-after': { required: false } } : fromService,
    });
  }
  responses.push({
    status: 413,
    description: 'The body is over 64 KiB (the service), or over 10 MB or Lambda’s 6 MB (API Gateway, its own body).',
    variants: [service(codeList(['request_too_large'])), gateway('payloadTooLarge')],
    headers: fromEither,
  });
  if (idempotent) {
    responses.push({
      status: 422,
      description: 'The `Idempotency-Key` was used with another request.',
      variants: [service(codeList(['idempotency_key_reused']))],
      headers: fromService,
    });
  }
  responses.push(
    {
      status: 429,
      description: 'A limit was reached; `too_many_requests` says when to retry (`Retry-After`).',
      variants: [service(joined(codeList(['too_many_requests']), own(429)))],
      headers: { ...fromService, 'retry-after': { required: false } },
    },
    {
      status: 431,
      description: 'API Gateway: the request line and headers are over 10,240 bytes (its own body).',
      variants: [gateway('headersTooLarge')],
      headers: {},
    },
    {
      status: 500,
      description:
        'An unexpected failure (the service), or the function failed or took over 10 s (API Gateway, its own body). Retry with the same `Idempotency-Key`.',
      variants: [service(codeList(['internal_server_error'])), gateway('internalError')],
      headers: fromEither,
    },
    {
      status: 503,
      description:
        'A dependency was throttling or out of reach (`service_unavailable`, with `Retry-After`), or API Gateway gave up after 30 s (its own body; the request may have taken effect). Retry with the same `Idempotency-Key`.',
      variants: [service(codeList(['service_unavailable'])), gateway('serviceUnavailable')],
      headers: { ...fromEither, 'retry-after': { required: false } },
    },
  );
  return responses;
}

/** The zod schema of a gateway answer's body: `{"message": "…"}`, the exact text API Gateway sends. */
export const gatewayErrorBody = (error: GatewayError) =>
  z.strictObject({ message: z.literal(GATEWAY_ERRORS[error].message) });

/** The zod schema that parses an answer's body; undefined when it has none. */
export function bodySchemaOf(response: ResponseSpec): z.core.$ZodType | undefined {
  const schemas = response.variants.map((variant): z.core.$ZodType => {
    if (variant.kind === 'schema') return variant.schema;
    if (variant.kind === 'gateway') return gatewayErrorBody(variant.error);
    const codes = [...variant.codes.keys()];
    return variant.control ? controlErrorResponse(codes) : errorResponse(codes);
  });
  if (schemas.length === 0) return undefined;
  return schemas.length === 1 ? schemas[0] : z.union(schemas);
}
