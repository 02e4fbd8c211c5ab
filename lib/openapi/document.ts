import { isDeepStrictEqual } from 'node:util';
import type * as z from 'zod/mini';
import { GATEWAY_ERRORS } from '#lib/service/gateway-errors';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import { SERVICE_VERSION } from '#shared/http/middlewares';
import { IDEMPOTENT_METHODS } from '#shared/http/table-access';
import {
  HEADER_COMPONENTS,
  HEADER_REFS,
  PARAMETER_COMPONENTS,
  RESPONSE_COMPONENTS,
  ref,
  SECURITY_SCHEMES,
  shareResponses,
} from './components';
import { type BodyVariant, type HeaderName, type ResponseSpec, type RouteContract, routeContracts } from './contract';
import { type JsonSchema, toJsonSchema, toJsonSchemas } from './json-schema';
import type { Tag } from './operations';

// The OpenAPI 3.1 document of the service, generated from the route table (lib/service),
// the schemas each handler validates with (`handler.request`), the response schemas
// (functions/<area>/openapi-responses.ts) and the operations table (operations/), so it cannot
// drift from the code: `npm run openapi` prints it, the local runtime serves it at
// `GET /openapi.json`, and the tests hold it to the handlers and to real responses.

export interface DocumentOptions {
  /** Default: the service's whole route table. */
  readonly routes?: readonly RouteDefinition[];
  /** Default: the local runtime's default address and the AWS URL pattern. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
}

export type OpenApiDocument = JsonSchema & { paths: Record<string, Record<string, JsonSchema>> };

export const DEFAULT_SERVERS = [
  { url: 'http://127.0.0.1:3000', description: '`npm start` (the local runtime, sandbox bank and vendor)' },
  {
    url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
    description: 'AWS: the stack output `ApiUrl`',
    variables: { apiId: { default: 'abc123', description: 'The HTTP API’s id' }, region: { default: 'us-east-1' } },
  },
];

const TAGS: readonly { name: Tag; description: string }[] = [
  { name: 'Verify accounts', description: 'Verification of US bank accounts: status, debits, ownership, control.' },
  { name: 'Persons', description: 'People the partner pays or is paid by: identification (KYC) and screening.' },
  {
    name: 'Screening review',
    description:
      'The service’s operators only (scope `review:screening`, never a partner’s): screening hits of every tenant, and their decisions.',
  },
  { name: 'Events', description: 'The event log (30 days) and redelivery.' },
  { name: 'Webhooks', description: 'Where events go, the signing secret, and test events.' },
  { name: 'Local sandbox', description: 'Routes of the local runtime (`npm start`) only; never deployed.' },
];

export async function openApiDocument(options: DocumentOptions = {}): Promise<OpenApiDocument> {
  const contracts = await routeContracts(options.routes ?? ROUTES);
  const requestBodies = requestBodyComponents(contracts);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const contract of contracts) {
    paths[contract.route.path] ??= {};
    paths[contract.route.path][contract.route.method.toLowerCase()] = operationObject(contract);
  }
  const responses = shareResponses(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Verify service API',
      version: SERVICE_VERSION,
      description: INFO_DESCRIPTION,
    },
    servers: options.servers ?? DEFAULT_SERVERS,
    tags: TAGS.filter((tag) => contracts.some((contract) => contract.operation.tag === tag.name)),
    paths,
    components: {
      schemas: { ...toJsonSchemas(RESPONSE_COMPONENTS, 'output'), ...toJsonSchemas(requestBodies, 'input') },
      parameters: PARAMETER_COMPONENTS,
      responses,
      headers: HEADER_COMPONENTS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/**
 * The request bodies as named components. A name used by several routes must name the same
 * schema (e.g. `PersonRequest` for POST, PUT and PUT by reference).
 */
function requestBodyComponents(contracts: readonly RouteContract[]): Record<string, z.core.$ZodType> {
  const named: Record<string, z.core.$ZodType> = {};
  for (const { route, operation, request } of contracts) {
    const name = operation.requestBody?.name;
    if (!request.body || !name) {
      if (request.body || name) throw new Error(`${route.id}: a request body needs a schema and a name, or neither`);
      continue;
    }
    const existing = named[name];
    if (
      existing &&
      existing !== request.body &&
      !isDeepStrictEqual(toJsonSchema(existing, 'input'), toJsonSchema(request.body, 'input'))
    ) {
      throw new Error(`${route.id}: request body ${name} differs from another route's of that name`);
    }
    named[name] ??= request.body;
  }
  return named;
}

function operationObject({ route, operation, request, responses }: RouteContract): JsonSchema {
  const inputBody = request.body && toJsonSchema(request.body, 'input');
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    ...(route.localOnly && { 'x-local-only': true }),
    parameters: [
      ...pathParameters(route, request, operation.parameters ?? {}),
      ...queryParameters(request, operation.parameters ?? {}),
      ref('parameters', 'ServiceVersion'),
      ...(isIdempotent(route) ? [ref('parameters', 'IdempotencyKey')] : []),
    ],
    ...(request.body &&
      operation.requestBody && {
        requestBody: {
          // An empty body counts as `{}`: a body without required fields may be left out.
          required: ((inputBody?.required as string[] | undefined) ?? []).length > 0,
          ...(operation.requestBody.description && { description: operation.requestBody.description }),
          content: {
            'application/json': {
              schema: ref('schemas', operation.requestBody.name),
              ...(operation.requestBody.examples && { examples: operation.requestBody.examples }),
            },
          },
        },
      }),
    responses: Object.fromEntries(responses.map((response) => [String(response.status), responseObject(response)])),
    // One requirement per scope: API Gateway grants a route to a token with ANY of its scopes,
    // and one requirement listing several would mean all of them.
    security: route.scopes.map((scope) => ({ oauth2: [scope] })),
  };
}

const isIdempotent = (route: RouteDefinition) => IDEMPOTENT_METHODS.includes(route.method);

/** `{param}`s of the path, described by the handler's params schema (strings, as API Gateway passes them). */
function pathParameters(
  route: RouteDefinition,
  request: RouteContract['request'],
  descriptions: Record<string, string>,
) {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const properties =
    (request.params && (toJsonSchema(request.params, 'input').properties as Record<string, JsonSchema>)) ?? {};
  return names.map((name) => ({
    name,
    in: 'path',
    required: true,
    ...(descriptions[name] && { description: descriptions[name] }),
    schema: properties[name] ?? { type: 'string' },
  }));
}

/** The query schema's fields as the handler reads them; repeated parameters form arrays (`explode`). */
function queryParameters(request: RouteContract['request'], descriptions: Record<string, string>) {
  if (!request.query) return [];
  const read = toJsonSchema(request.query, 'output');
  const sent = toJsonSchema(request.query, 'input');
  const required = new Set((sent.required as string[] | undefined) ?? []);
  return Object.entries(read.properties as Record<string, JsonSchema>).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(descriptions[name] && { description: descriptions[name] }),
    ...(schema.type === 'array' && { style: 'form', explode: true }),
    schema,
  }));
}

function responseObject(response: ResponseSpec): JsonSchema {
  const headers = Object.entries(response.headers).map(([header, { required }]) => {
    const { name, always, sometimes } = HEADER_REFS[header as HeaderName];
    const component = required ? always : sometimes;
    if (!component) throw new Error(`header ${name} is not documented as ${required ? 'always' : 'sometimes'} present`);
    return [name, ref('headers', component)];
  });
  const schemas = response.variants.map(variantSchema);
  return {
    description: describeResponse(response),
    ...(headers.length > 0 && { headers: Object.fromEntries(headers) }),
    ...(schemas.length > 0 && {
      content: {
        'application/json': {
          schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas },
          ...(response.examples && { examples: response.examples }),
        },
      },
    }),
  };
}

function variantSchema(variant: BodyVariant): JsonSchema {
  if (variant.kind === 'schema') {
    const name = Object.entries(RESPONSE_COMPONENTS).find(([, schema]) => schema === variant.schema)?.[0];
    return name ? ref('schemas', name) : toJsonSchema(variant.schema, 'output');
  }
  if (variant.kind === 'gateway') {
    return {
      allOf: [
        ref('schemas', 'GatewayErrorResponse'),
        { properties: { message: { const: GATEWAY_ERRORS[variant.error].message } } },
      ],
    };
  }
  return {
    allOf: [
      ref('schemas', variant.control ? 'ControlErrorResponse' : 'ErrorResponse'),
      { properties: { error_code: { type: 'string', enum: [...variant.codes.keys()] } } },
    ],
  };
}

/** The response's description, with what each error code means. */
function describeResponse(response: ResponseSpec): string {
  const codes = response.variants.flatMap((variant) => (variant.kind === 'error' ? [...variant.codes] : []));
  if (codes.length === 0) return response.description;
  return [response.description, '', ...codes.map(([code, meaning]) => `- \`${code}\`: ${meaning}`)].join('\n');
}

const INFO_DESCRIPTION = `Account verification and person identification for fintech partners. Compatible with Orum's Verify, Deliver persons and webhook APIs (\`v2022-09-21\`): the same field names, enums, status codes and error codes, except where docs/api.md says otherwise (the version header is \`Service-Version\`, persons live at \`/persons\`, webhooks are signed as Standard Webhooks).

This document is generated from the code (\`npm run openapi\`; \`GET /openapi.json\` on \`npm start\`): request schemas are the ones each handler validates with, and the tests parse every response the service gives with the response schemas here.

- Every request carries \`Authorization: Bearer <token>\` and \`Service-Version: ${SERVICE_VERSION}\`.
- Every error the service answers is \`{ error_code, message, details?, request_id }\`. API Gateway's own answers (401, 403, some 413 and 500, 431, 503) are \`{ "message": "…" }\`; a method and path that is no route answers \`404 {"message":"Not Found"}\` before the token is looked at.
- A field that does not apply, or is not known yet, is absent: never \`null\`. Timestamps are RFC 3339 in UTC with milliseconds.
- Enums grow, error codes too: accept values you do not know.
- POST, PATCH and DELETE take an \`Idempotency-Key\`.
- Each tenant has a request budget: \`429 too_many_requests\` with \`Retry-After\`.`;
