import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { MAX_PAGE_OFFSET } from '#domain/pagination';
import { bodySchemaOf, type RouteContract, routeContracts } from '#lib/openapi/contract';
import { type OpenApiDocument, openApiDocument } from '#lib/openapi/document';
import { type JsonSchema, jsonSchemaOptions } from '#lib/openapi/json-schema';
import { OPERATIONS } from '#lib/openapi/operations/index';
import { REPO_ROOT } from '#lib/repo-root';
import { ROUTES, type RouteDefinition, routeKey } from '#lib/service/index';
import { orumOperations } from '#test/support/orum-requests';

/**
 * The OpenAPI document against the code it is generated from: every route documented
 * once, requests exactly the handlers' own schemas, every answer a route can get, examples
 * that the schemas accept, and a document the reference linter finds nothing wrong with.
 */
let document: OpenApiDocument;
let contracts: RouteContract[];

beforeAll(async () => {
  process.env.REDOCLY_TELEMETRY = 'off';
  [document, contracts] = await Promise.all([openApiDocument(), routeContracts(ROUTES)]);
});

const BY_ROUTE = ROUTES.map((route) => [routeKey(route), route.id] as const);
const contractOf = (id: string) => contracts.find((contract) => contract.route.id === id) as RouteContract;
const operationOf = (id: string) => {
  const { route } = contractOf(id);
  return document.paths[route.path]?.[route.method.toLowerCase()] as JsonSchema & {
    parameters: JsonSchema[];
    responses: Record<string, JsonSchema>;
    requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  };
};
const components = () => document.components as Record<string, Record<string, JsonSchema>>;
/** A `$ref` within the document, followed. */
const resolved = (node: JsonSchema): JsonSchema => {
  if (typeof node.$ref !== 'string') return node;
  const [, kind, name] = node.$ref.split('/').slice(1);
  return resolved(components()[kind][name]);
};
/** What `z.toJSONSchema` itself makes of a schema, with the document's options. */
const jsonOf = (schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, jsonSchemaOptions(io)) as JsonSchema;
  return rest;
};

describe('every route is documented, once', () => {
  it('has one operation per route of ROUTES, at its method and path, and no other', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  it('has an operations-table entry for every route id and none for a route that does not exist', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(ROUTES.map((route) => route.id).sort());
  });

  it('gives every operation its own operationId', () => {
    const ids = Object.values(OPERATIONS).map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks the local-only routes, which are never deployed', () => {
    for (const { route } of contracts) {
      const operation = operationOf(route.id);
      expect(operation['x-local-only'], route.id).toBe(route.localOnly ? true : undefined);
      expect(operation.tags, route.id).toEqual(route.localOnly ? ['Local sandbox'] : expect.any(Array));
    }
  });

  it.each(BY_ROUTE)(
    '%s: admits a token with any one of the route’s scopes (one security requirement per scope)',
    (_key, id) => {
      expect(operationOf(id).security).toEqual(contractOf(id).route.scopes.map((scope) => ({ oauth2: [scope] })));
    },
  );

  it('declares every scope in the security scheme, and the version of the contract', () => {
    const oauth2 = components().securitySchemes.oauth2 as { flows: { clientCredentials: { scopes: object } } };
    const scopes = Object.keys(oauth2.flows.clientCredentials.scopes);
    expect(scopes.sort()).toEqual([...new Set(ROUTES.flatMap((route) => route.scopes))].sort());
    expect(document.info).toMatchObject({ version: 'v2022-09-21' });
    expect(document.openapi).toBe('3.1.0');
  });
});

/** Orum's published operations (test/fixtures/orum/), at the path each has here (`/deliver/persons…` is `/persons…`). */
const ORUM = orumOperations(join(REPO_ROOT, 'test/fixtures/orum')).map((operation) => ({
  ...operation,
  key: `${operation.method} ${operation.path.replace(/^\/deliver\/persons/, '/persons')}`,
}));

/** Why a route's `operationId` is not as Orum would name it; undefined when it is. */
function operationIdProblem(route: RouteDefinition, operationId: string): string | undefined {
  const orum = ORUM.find((operation) => operation.key === routeKey(route));
  if (orum) {
    return orum.operationId === operationId
      ? undefined
      : `${route.id}: Orum names ${routeKey(route)} ${orum.operationId}; take its operationId (lib/openapi/operations/), so a client generated from Orum's documents names it alike`;
  }
  const taken = ORUM.find((operation) => operation.operationId === operationId);
  const form = new RegExp(`^${route.method.toLowerCase()}(-[a-z0-9]+)+$`);
  if (!taken && form.test(operationId)) return undefined;
  return (
    `${route.id}: Orum has no ${routeKey(route)}, so its operationId is the service's own, in Orum's form and none of ` +
    `Orum's: the method and the path’s nouns, one record singular (get-event, post-event-redeliver, ` +
    `get-screening-hits), not ${operationId}${taken ? `, which is Orum's ${taken.key}` : ''}`
  );
}

describe('operation ids (docs/architecture.md#adding-to-the-service, step 4)', () => {
  it('are Orum’s where Orum has the route, and in Orum’s form, never one of Orum’s, where it does not', () => {
    expect(ORUM.length).toBeGreaterThan(15);
    const problems = ROUTES.flatMap((route) => {
      const problem = operationIdProblem(route, OPERATIONS[route.id]?.operationId ?? '');
      return problem === undefined ? [] : [problem];
    });
    expect(problems).toEqual([]);
  });

  it('say the way out when an id is not Orum’s for its route, or is Orum’s for another', () => {
    const route = (method: RouteDefinition['method'], path: string) =>
      ({ id: 'Probe', method, path }) as RouteDefinition;
    expect(operationIdProblem(route('GET', '/persons/{id}'), 'get-one-person')).toContain(
      'Orum names GET /persons/{id} get-person',
    );
    expect(operationIdProblem(route('GET', '/webhooks/configurations/{id}'), 'get-webhook-configurations')).toContain(
      "which is Orum's GET /webhooks/configurations",
    );
    expect(operationIdProblem(route('GET', '/webhooks/configurations/{id}'), 'getWebhookConfiguration')).toContain(
      'the method and the path’s nouns',
    );
    expect(
      operationIdProblem(route('GET', '/webhooks/configurations/{id}'), 'get-webhook-configuration'),
    ).toBeUndefined();
  });
});

describe('requests are described by the schemas the handlers validate with', () => {
  it.each(BY_ROUTE)('%s: the request body is the handler’s body schema', (_key, id) => {
    const { request } = contractOf(id);
    const body = operationOf(id).requestBody;
    if (!request.body) {
      expect(body).toBeUndefined();
      return;
    }
    expect(resolved(body?.content['application/json'].schema as JsonSchema)).toEqual(jsonOf(request.body, 'input'));
  });

  it.each(BY_ROUTE)('%s: the query parameters are the fields of the handler’s query schema', (_key, id) => {
    const { request } = contractOf(id);
    const documented = operationOf(id).parameters.filter((parameter) => parameter.in === 'query');
    const fields = (request.query ? jsonOf(request.query, 'output').properties : {}) as Record<string, JsonSchema>;
    expect(Object.fromEntries(documented.map((parameter) => [parameter.name, parameter.schema]))).toEqual(fields);
  });

  it.each(BY_ROUTE)('%s: the path parameters are the {names} of the path, as the handler reads them', (_key, id) => {
    const { route, request } = contractOf(id);
    const documented = operationOf(id).parameters.filter((parameter) => parameter.in === 'path');
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    expect(documented.map((parameter) => parameter.name)).toEqual(names);
    const fields = (request.params ? jsonOf(request.params, 'input').properties : {}) as Record<string, JsonSchema>;
    expect(Object.keys(fields).sort()).toEqual([...names].sort());
    for (const parameter of documented) expect(parameter.schema).toEqual(fields[parameter.name as string]);
  });

  it.each(BY_ROUTE)('%s: describes every parameter and body field with a schema that says something', (_key, id) => {
    const operation = operationOf(id);
    const body = operation.requestBody && resolved(operation.requestBody.content['application/json'].schema);
    const schemas = [
      ...operation.parameters.filter((parameter) => !parameter.$ref).map((parameter) => parameter.schema as JsonSchema),
      ...Object.values((body?.properties ?? {}) as Record<string, JsonSchema>),
    ];
    // `{}` would say "anything": what zod cannot derive needs its keywords (#shared/input-schemas `documented`).
    for (const schema of schemas)
      expect(Object.keys(schema).length, JSON.stringify(operation.parameters)).toBeGreaterThan(0);
  });

  it.each(BY_ROUTE)(
    '%s: a paged list documents the ceiling on its page number (index at most 10,000, index × size too)',
    (_key, id) => {
      const index = operationOf(id).parameters.find(
        (parameter) => parameter.in === 'query' && parameter.name === 'index',
      );
      if (!index) return;
      expect(index.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: MAX_PAGE_OFFSET });
      expect(index.description).toMatch(/index × size.*400 invalid_index.*start_time/s);
    },
  );

  it.each(BY_ROUTE)('%s: takes Service-Version always and Idempotency-Key on POST, PATCH and DELETE', (_key, id) => {
    const { route } = contractOf(id);
    const headers = operationOf(id)
      .parameters.filter((parameter) => parameter.$ref)
      .map((parameter) => parameter.$ref);
    const idempotent = ['POST', 'PATCH', 'DELETE'].includes(route.method);
    expect(headers).toEqual([
      '#/components/parameters/ServiceVersion',
      ...(idempotent ? ['#/components/parameters/IdempotencyKey'] : []),
    ]);
  });
});

describe('answers', () => {
  it.each(BY_ROUTE)('%s: documents its success and every answer any route can get', (_key, id) => {
    const { operation } = contractOf(id);
    const statuses = Object.keys(operationOf(id).responses);
    expect(statuses).toEqual(
      expect.arrayContaining([
        String(operation.success.status),
        '400',
        '401',
        '403',
        '413',
        '429',
        '431',
        '500',
        '503',
      ]),
    );
  });

  it.each(BY_ROUTE)('%s: documents the same answers the contract parses responses with', (_key, id) => {
    const { responses } = contractOf(id);
    const documented = operationOf(id).responses;
    expect(Object.keys(documented).sort()).toEqual(responses.map((response) => String(response.status)).sort());
    for (const response of responses) {
      const content = resolved(documented[String(response.status)]).content as Record<string, JsonSchema> | undefined;
      expect(Boolean(content), `${response.status}`).toBe(response.variants.length > 0);
    }
  });

  it('narrows error_code to the codes of each answer, and explains each', () => {
    const control = contractOf('VerifyAccountControl').responses.find((response) => response.status === 400);
    const schema = bodySchemaOf(control!) as z.core.$ZodType;
    expect(z.safeParse(schema, { error_code: 'incorrect_statement_code', message: 'm', request_id: 'r' }).success).toBe(
      true,
    );
    expect(z.safeParse(schema, { error_code: 'unknown_id', message: 'm', request_id: 'r' }).success).toBe(false);
    const description = operationOf('VerifyAccountControl').responses['400'].description as string;
    expect(description).toContain('- `incorrect_statement_code`: the statement code is wrong');
  });
});

describe('examples are accepted by the schemas they illustrate', () => {
  it.each(BY_ROUTE)('%s', (_key, id) => {
    const { operation, request, responses } = contractOf(id);
    for (const [name, example] of Object.entries(operation.requestBody?.examples ?? {})) {
      const parsed = z.safeParse(request.body as z.core.$ZodType, example.value);
      expect(parsed.success, `request example ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    for (const response of responses) {
      for (const [name, example] of Object.entries(response.examples ?? {})) {
        const parsed = z.safeParse(bodySchemaOf(response) as z.core.$ZodType, example.value);
        expect(parsed.success, `${response.status} example ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(
          true,
        );
      }
    }
  });
});

describe('rules the request schemas say themselves, not only in prose', () => {
  const requestSchema = (name: string) => components().schemas[name] as JsonSchema;
  const property = (schema: JsonSchema, name: string): JsonSchema => {
    const node = (schema.properties as Record<string, JsonSchema>)[name] as JsonSchema;
    const anyOf = node.anyOf as JsonSchema[] | undefined;
    return anyOf ? (anyOf.find((variant) => variant.type !== 'null') as JsonSchema) : node;
  };
  /** Every `pattern` in a schema, at any depth. */
  const patternsIn = (node: unknown): string[] =>
    node === null || typeof node !== 'object'
      ? []
      : Object.entries(node).flatMap(([key, value]) =>
          key === 'pattern' && typeof value === 'string' ? [value] : patternsIn(value),
        );
  const matches = (schema: JsonSchema, value: string) => new RegExp(schema.pattern as string, 'u').test(value);

  it('writes every pattern as a JavaScript regular expression with the u flag can read it', () => {
    const patterns = patternsIn(components().schemas);
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(() => new RegExp(pattern, 'u'), pattern).not.toThrow();
  });

  it.each([
    ['PersonRequest', 'first_name'],
    ['PersonRequest', 'last_name'],
    ['PatchPersonRequest', 'middle_name'],
  ])('%s.%s: the persons name pattern (letters and punctuation, no digits)', (schema, field) => {
    const name = property(requestSchema(schema), field);
    for (const ok of ['Zoë', 'O’Brien', 'Lee, Jr.', 'Nguyễn Văn', 'e\u0301']) expect(matches(name, ok), ok).toBe(true);
    for (const bad of ['Ann2', '...', 'A\\B', '李']) expect(matches(name, bad), bad).toBe(false);
  });

  it.each([['account_holder_name'], ['sender_name']])(
    'VerifyAccountRequest.%s: the Verify name pattern (digits too, at least one letter or digit)',
    (field) => {
      const name = property(requestSchema('VerifyAccountRequest'), field);
      for (const ok of ['Smith & Sons, Inc.', '7-Eleven', 'Zoë']) expect(matches(name, ok), ok).toBe(true);
      for (const bad of ['...', 'A\\B', '李']) expect(matches(name, bad), bad).toBe(false);
    },
  );

  it.each(['PersonRequest', 'PatchPersonRequest'])(
    '%s: says that an email contact’s value is an email address',
    (schema) => {
      const contacts = property(requestSchema(schema), 'contacts');
      expect(contacts.items).toMatchObject({
        anyOf: [{ properties: { type: { const: 'phone' } } }, { properties: { value: { format: 'email' } } }],
      });
    },
  );

  it('says metadata’s bounds: at most 5 keys of 1 to 20 characters, none named __proto__ or constructor', () => {
    for (const schema of ['PersonRequest', 'PatchPersonRequest']) {
      expect(property(requestSchema(schema), 'metadata')).toMatchObject({
        maxProperties: 5,
        propertyNames: { minLength: 1, maxLength: 20, not: { enum: ['__proto__', 'constructor'] } },
      });
    }
  });

  it('says a sanctions entry’s name holds a letter or digit', () => {
    const name = property(requestSchema('SanctionsEntryRequest'), 'name');
    expect(matches(name, 'LAST, First')).toBe(true);
    expect(matches(name, '.')).toBe(false);
  });
});

describe('the reference linter (Redocly, recommended rules)', () => {
  it('finds nothing wrong', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      // The service is not published under a licence (package.json is private and names none).
      rules: { 'info-license': 'off' },
    });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`)).toEqual([]);
  });
});
