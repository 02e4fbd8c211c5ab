import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { openApiDocument } from '#lib/openapi/document';
import { ROUTES, type RouteDefinition, routeKey } from '#lib/service/index';
import { SERVICE_SCOPES } from '#shared/scopes';
import {
  type ApiResponse,
  api,
  clientFor,
  OPERATOR,
  type RawResponse,
  rawRequest,
  SERVICE_VERSION,
  startTestRuntime,
} from '../harness';
import { personBody } from '../persons/support';
import { accountBody } from '../verify-accounts/support';
import { useTestDns } from '../webhooks/support';
import { PROTOTYPE_KEYS } from './schema-arbitraries';
import { encodable, type SchemaRequest, schemaRequests } from './schema-requests';
import { type RouteVocabulary, VOCABULARY } from './vocabulary';

/**
 * Two properties, on every route of the route table: nothing a caller sends produces a
 * 5xx, and every error the service answers has the contract's shape with the request id.
 *
 * - Raw inputs: random JSON built from the route's own field names and hostile ones
 *   (`__proto__`, `constructor`, `prototype`), wrong types, Unicode, huge strings and
 *   bodies over the limit, deep nesting, raw garbage and malformed JSON, in any content
 *   type, with any path id, query string and Idempotency-Key.
 * - Inputs from the OpenAPI document: bodies, query and path parameters and headers built
 *   from the document's own request schemas (schema-arbitraries.ts), valid ones and ones
 *   with hostile values in any node (numbers DynamoDB cannot hold, empty and reserved
 *   keys, deep nesting, odd Unicode, wrong types), and the document's examples with one
 *   node or key made hostile. Every answer is also held to the document
 *   (test/support/contract.ts): a documented status, and a body its schema parses, 2xx
 *   included.
 *
 * Runs are few per route so the suite stays fast (`FUZZ_RUNS=500` for a longer hunt). A
 * failing input is shrunk and printed with the seed and path that replay it:
 * `FUZZ_SEED=<seed> FUZZ_PATH=<path>`.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const REPLAY = process.env.FUZZ_SEED
  ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH, endOnFailure: true }
  : {};
let runtime: LocalRuntime;
let token: string;
/** The local operator's token, holding the same scopes: an operator route serves no other client. */
let operatorToken: string;
const tokenFor = (route: RouteDefinition) =>
  clientFor(route, 'tenant-route-fuzz') === OPERATOR ? operatorToken : token;
/** Ids of records that exist, so path ids also reach the handlers' deeper branches. */
const existing: string[] = [];

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  useTestDns();
  // Every scope a route may name, the operators' too, so every route's handler is reached.
  token = await runtime.mintToken('tenant-route-fuzz', SERVICE_SCOPES);
  operatorToken = await runtime.mintToken(OPERATOR, SERVICE_SCOPES);
  const call = api(runtime, token);
  existing.push((await call.post('/verify/accounts', accountBody())).body.account.id);
  existing.push((await call.post('/persons', personBody())).body.person.id);
  const configuration = await call.post('/webhooks/configurations', {
    url: 'https://hooks.example.com/fuzz',
    event_types: ['subscribe_all'],
    enabled: true,
  });
  existing.push(configuration.body.webhook_configuration.id);
  await call.post('/webhooks/secret');
  await call.post('/webhooks/invoke', { event_type: 'person_created' });
  existing.push((await call.get('/events?test=true')).body.events[0].event_id);
  expect(existing.every(Boolean)).toBe(true);
});
afterAll(() => runtime?.stop());

// ---- values -------------------------------------------------------------------------

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '\u202E',
    'A\u030A',
    '💸💸',
    'ǅ',
    '123-45-6789',
    '021000021',
    '0000',
    'NaN',
  ),
);
const huge = fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'é'.repeat(n));
const scalar = fc.oneof(
  { weight: 5, arbitrary: text },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER * 10, -0, 1e308),
  { weight: 1, arbitrary: huge },
);
const anyKey = fc.oneof(text, fc.constantFrom(...PROTOTYPE_KEYS));
const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(anyKey, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** An object with the route's own fields (and nested ones), hostile keys and random keys, holding anything. */
function bodyObject(vocabulary: RouteVocabulary): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(vocabulary.body ?? {});
  const known = fields.map(([name, nested]) => {
    const nestedObject = nested?.length
      ? fc.dictionary(fc.oneof(fc.constantFrom(...nested), anyKey), anyValue, { maxKeys: 5 })
      : anyValue;
    return fc.tuple(fc.constant(name), fc.oneof(anyValue, nestedObject, fc.array(nestedObject, { maxLength: 3 })));
  });
  const entry = fc.oneof(
    { weight: 4, arbitrary: known.length > 0 ? fc.oneof(...known) : fc.tuple(anyKey, anyValue) },
    { weight: 1, arbitrary: fc.tuple(anyKey, anyValue) },
  );
  return fc.array(entry, { maxLength: 8 }).map((entries) => {
    // Own properties even for `__proto__`, as JSON.parse makes them.
    const object: Record<string, unknown> = {};
    for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true });
    return object;
  });
}

const deep = (depth: number, open: string, close: string, inner = '1') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
const RAW_BODIES = [
  '',
  '{',
  '[]',
  'null',
  '"x"',
  '1e999',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"person":{"__proto__":{"polluted":"yes"}},"metadata":{"__proto__":{"isAdmin":true}}}',
  '{"data":{"__proto__":{"polluted":"yes"}},"event_type":"person_created"}',
  '\u0000\u0001\u0002',
  '\uFEFF{}',
  `{"data":${deep(40, '{"a":', '}')},"event_type":"person_created"}`,
  `{"data":${deep(5_000, '{"a":', '}')},"event_type":"person_created"}`,
  deep(20_000, '[', ']'),
  `{"x":"${'y'.repeat(70_000)}"}`,
];
const rawBody = (vocabulary: RouteVocabulary) =>
  fc.oneof(
    { weight: 6, arbitrary: bodyObject(vocabulary).map((object) => JSON.stringify(object)) },
    { weight: 1, arbitrary: fc.json() },
    { weight: 1, arbitrary: text },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

const pathId = fc.oneof(
  fc.constantFrom(0, 1, 2, 3).map((index) => existing[index] as string),
  fc.uuid(),
  // '.' and '..' are path navigation, resolved before any route is chosen.
  text.filter((value) => encodable(value) && value !== '.' && value !== '..'),
);

const queryString = (vocabulary: RouteVocabulary) =>
  fc.oneof(
    fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...(vocabulary.query ?? ['x'])), text),
          fc.oneof(
            text,
            fc.integer().map(String),
            fc.constantFrom('0', '500', '-1', 'valid,closed', '2026-01-01T00:00:00Z'),
          ),
        ),
        { maxLength: 6 },
      )
      .map((pairs) => new URLSearchParams(pairs).toString()),
    fc.constantFrom('%', '%zz', '%E0%A4%A', '&&&', '=x', 'a=b=c', 'size=1&size=2', `x=${'q'.repeat(5_000)}`),
  );

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));
const headers = fc.record(
  {
    'service-version': fc.oneof({ weight: 9, arbitrary: fc.constant(SERVICE_VERSION) }, printable(30)),
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/octet-stream',
      'application/json; charset=utf-16',
      'multipart/form-data; boundary=x',
    ),
    'idempotency-key': printable(300),
  },
  { requiredKeys: ['service-version'] },
);

function requestFor(route: RouteDefinition) {
  const vocabulary = VOCABULARY[routeKey(route)] ?? {};
  return fc.record({
    id: pathId,
    query: fc.option(queryString(vocabulary), { nil: undefined, freq: 2 }),
    body: rawBody(vocabulary),
    headers,
  });
}

// ---- the property -------------------------------------------------------------------

const ERROR_KEYS = ['error_code', 'message', 'details', 'request_id'];

function expectContractAnswer(response: RawResponse, input: unknown) {
  const context = JSON.stringify(input).slice(0, 2_000);
  expect(response.status, context).toBeLessThan(500);
  if (response.status < 400) return;
  const body = JSON.parse(response.text) as Record<string, unknown>;
  expect(typeof body.error_code, context).toBe('string');
  expect(typeof body.message, context).toBe('string');
  expect(body.request_id, context).toBe(response.headers['apigw-requestid']);
  const extra = body.error_code === 'incorrect_statement_code' ? ['attempts_remaining'] : [];
  expect(
    Object.keys(body).filter((key) => ![...ERROR_KEYS, ...extra].includes(key)),
    context,
  ).toEqual([]);
}

describe('fuzzing every route: never a 5xx, always the contract’s error shape', () => {
  it('knows every route of the route table, and only those', () => {
    expect(Object.keys(VOCABULARY).sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  it.each(ROUTES.map((route) => [routeKey(route), route] as const))('%s', async (_key, route) => {
    await fc.assert(
      fc.asyncProperty(requestFor(route), async (input) => {
        const path = route.path.replace(/\{\w+\}/g, encodeURIComponent(input.id));
        const response = await rawRequest(runtime, {
          method: route.method,
          path: input.query === undefined ? path : `${path}?${input.query}`,
          headers: { authorization: `Bearer ${tokenFor(route)}`, ...input.headers },
          body: input.body,
        });
        expectContractAnswer(response, input);
      }),
      { numRuns: RUNS, ...REPLAY },
    );
    // Handlers run in this process: a polluted prototype would show here.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

// ---- requests from the OpenAPI document's schemas ------------------------------------

let schemaRequestFor: (route: RouteDefinition) => fc.Arbitrary<SchemaRequest>;
beforeAll(async () => {
  schemaRequestFor = schemaRequests(await openApiDocument(), existing);
});

function expectContractError(response: ApiResponse, input: unknown) {
  const context = JSON.stringify(input)?.slice(0, 2_000);
  expect(response.status, context).toBeLessThan(500);
  if (response.status < 400) return;
  const body = response.body as Record<string, unknown>;
  // API Gateway's own answers (431, 413 …) have its body: the contract check has held it to the document.
  if (!('error_code' in body) && Object.keys(body).join() === 'message') return;
  expect(typeof body.error_code, context).toBe('string');
  expect(typeof body.message, context).toBe('string');
  expect(body.request_id, context).toBe(response.headers['x-request-id']);
}

describe('fuzzing every route with requests from the OpenAPI document: never a 5xx, every answer as documented', () => {
  it.each(ROUTES.map((route) => [routeKey(route), route] as const))('%s', async (_key, route) => {
    const call = api(runtime, tokenFor(route));
    await fc.assert(
      fc.asyncProperty(schemaRequestFor(route), async (input) => {
        const path = route.path.replace(/\{\w+\}/g, encodeURIComponent(input.id));
        const response = await call.request(route.method, input.query ? `${path}?${input.query}` : path, {
          headers: input.headers,
          body: input.body === undefined ? undefined : JSON.stringify(input.body),
        });
        expectContractError(response, input);
      }),
      // A body has the most places to be hostile in: twice the runs.
      { numRuns: route.method === 'GET' || route.method === 'DELETE' ? RUNS : 2 * RUNS, ...REPLAY },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
