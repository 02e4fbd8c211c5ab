import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { type ApiResponse, api, startTestRuntime } from './harness';

/**
 * Property: nothing a caller sends produces a 5xx, and every error the service itself
 * answers has the contract's shape. Inputs mix valid fields, wrong types, odd Unicode,
 * malformed JSON and hostile query strings; runs are bounded so the suite stays fast.
 */
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;
const RUNS = 120;
/**
 * Each property gives up after its requests × this (docs/testing.md#on-a-busy-machine):
 * 5 ms a request measured here idle, over 62 ms in a full `npm test` with both cores kept
 * busy, where 480 requests outran a flat 30 s.
 */
const MS_PER_REQUEST = 150;
const budget = (requestsPerRun: number) => RUNS * requestsPerRun * MS_PER_REQUEST;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = api(runtime, await runtime.mintToken('tenant-fuzz'));
});
afterAll(() => runtime?.stop());

function expectContractAnswer(response: ApiResponse, context: unknown) {
  expect(response.status, JSON.stringify(context)).toBeLessThan(500);
  if (response.status >= 400) {
    const body = response.body as Record<string, unknown>;
    expect(typeof body.error_code, JSON.stringify(context)).toBe('string');
    expect(typeof body.message).toBe('string');
    expect(typeof body.request_id).toBe('string');
    expect(Object.keys(body).every((k) => ['error_code', 'message', 'details', 'request_id'].includes(k))).toBe(true);
  }
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary', maxLength: 300 }));
const anyValue = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, anyValue), { nil: undefined, freq: 3 });

const ownership = fc.record(
  {
    first_name: maybe(text),
    last_name: maybe(text),
    ssn: maybe(digits(0, 11)),
    phone_number: maybe(text),
    business_name: maybe(text),
    tax_id: maybe(digits(0, 11)),
  },
  { requiredKeys: [] },
);
const createBody = fc.record(
  {
    account_number: maybe(digits(1, 20)),
    routing_number: maybe(fc.constantFrom('021000021', '011000015', '021000022', '12345678')),
    account_holder_name: maybe(text),
    type: maybe(fc.constantFrom('status', 'control', 'status_ownership', 'control_ownership', 'STATUS', '')),
    email: maybe(fc.oneof(fc.emailAddress(), text)),
    person: maybe(ownership),
    business: maybe(ownership),
    sender_name: maybe(text),
  },
  { requiredKeys: [] },
);
const rawBody = fc.oneof(
  createBody.map((b) => JSON.stringify(b)),
  fc.json(),
  text,
  fc.constantFrom('', '{', '[]', 'null', '"x"', '{"account_number":}', '\u0000', '{"a":1}'.repeat(1000)),
);
const header = fc.option(
  fc.oneof(
    fc.constant('v2022-09-21'),
    text.filter((s) => /^[\x20-\x7e]*$/.test(s)),
  ),
  { nil: undefined, freq: 4 },
);
const idempotencyKey = fc.option(fc.stringMatching(/^[\x21-\x7e]{0,300}$/), { nil: undefined, freq: 2 });

describe('fuzzing: never a 5xx', () => {
  it(
    'POST /verify/accounts',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawBody, header, idempotencyKey, async (body, version, key) => {
          const headers: Record<string, string | undefined> = { 'service-version': version ?? 'v2022-09-21' };
          if (key !== undefined) headers['idempotency-key'] = key;
          expectContractAnswer(await call.post('/verify/accounts', body, { headers }), { body, version, key });
        }),
        { numRuns: RUNS },
      );
    },
    budget(1),
  );

  const param = fc.constantFrom(
    'index',
    'size',
    'id',
    'start_time',
    'end_time',
    'account_number',
    'verification_status',
    'ownership_status',
    'control_status',
    'debit_status',
    'x',
    '',
  );
  const value = fc.oneof(
    text,
    fc.integer().map(String),
    fc.constantFrom(
      '0',
      '500',
      '501',
      '-1',
      'pending',
      'valid,closed',
      '2026-01-01T00:00:00Z',
      '+275760-09-13T00:00:00.000Z',
    ),
  );
  it(
    'GET /verify/accounts with any query string',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(param, value), { maxLength: 6 }), async (pairs) => {
          const query = new URLSearchParams(pairs).toString();
          expectContractAnswer(await call.get(`/verify/accounts?${query}`), query);
        }),
        { numRuns: RUNS },
      );
    },
    budget(1),
  );

  // '.' and '..' are path navigation, resolved before any route is chosen.
  const id = fc.oneof(
    fc.uuid(),
    text.filter((s) => s.length > 0 && s !== '.' && s !== '..'),
  );
  it(
    'GET /verify/accounts/{id}, POST …/control and POST …/debits with any id and body',
    async () => {
      await fc.assert(
        fc.asyncProperty(id, rawBody, async (raw, body) => {
          const path = `/verify/accounts/${encodeURIComponent(raw)}`;
          expectContractAnswer(await call.get(path), raw);
          expectContractAnswer(await call.post(`${path}/control`, body), { raw, body });
          expectContractAnswer(await call.post(`${path}/debits`, body), { raw, body });
        }),
        { numRuns: RUNS },
      );
    },
    budget(3),
  );

  const address = fc.record(
    {
      type: maybe(fc.constantFrom('home', 'legal', 'HOME')),
      address1: maybe(text),
      address2: maybe(text),
      city: maybe(text),
      state: maybe(fc.constantFrom('IL', 'il', 'ILL', '')),
      country: maybe(fc.constantFrom('US', 'CA', '')),
      zip5: maybe(digits(0, 7)),
    },
    { requiredKeys: [] },
  );
  const personBody = fc.record(
    {
      customer_reference_id: maybe(text),
      first_name: maybe(text),
      middle_name: maybe(text),
      last_name: maybe(text),
      date_of_birth: maybe(
        fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
          text,
        ),
      ),
      social_security_number: maybe(
        fc.oneof(digits(0, 11), fc.constantFrom('123-45-6789', '666-12-3456', '900-70-1234')),
      ),
      addresses: maybe(fc.array(address, { maxLength: 2 })),
      contacts: maybe(
        fc.array(fc.record({ type: maybe(fc.constantFrom('email', 'phone', 'fax')), value: maybe(text) }), {
          maxLength: 3,
        }),
      ),
      metadata: maybe(
        fc.dictionary(fc.string({ maxLength: 25 }), fc.oneof(fc.string({ maxLength: 60 }), anyValue), { maxKeys: 7 }),
      ),
    },
    { requiredKeys: [] },
  );
  const personRaw = fc.oneof(
    personBody.map((b) => JSON.stringify(b)),
    fc.json(),
    text,
  );

  it(
    'POST /persons, PUT /persons and, on a stored person, PATCH and PUT /persons/{id} with any body',
    async () => {
      const created = await call.post('/persons', {
        customer_reference_id: 'fuzz-target',
        first_name: 'Fuzz',
        last_name: 'Target',
      });
      expect(created.status).toBe(200);
      const target = `/persons/${created.body.person.id}`;
      await fc.assert(
        fc.asyncProperty(personRaw, personRaw, async (body, other) => {
          expectContractAnswer(await call.post('/persons', body), body);
          expectContractAnswer(await call.put('/persons', other), other);
          expectContractAnswer(await call.patch(target, body), body);
          expectContractAnswer(await call.put(target, other), other);
        }),
        { numRuns: RUNS },
      );
    },
    budget(4),
  );

  it(
    'GET /persons with any query string, and GET, PATCH, DELETE /persons/{id} with any id',
    async () => {
      const query = fc.oneof(
        text.map((t) => encodeURIComponent(t)),
        fc
          .dictionary(
            fc.constantFrom(
              'index',
              'size',
              'status',
              'start_time',
              'end_time',
              'first_name',
              'last_name',
              'id',
              'customer_reference_id',
              'x',
            ),
            fc.oneof(
              text,
              fc.integer().map(String),
              fc.constantFrom('verified', 'created,closed', '2026-01-01T00:00:00Z'),
            ),
          )
          .map((params) => new URLSearchParams(params).toString()),
      );
      await fc.assert(
        fc.asyncProperty(query, id, async (q, raw) => {
          expectContractAnswer(await call.get(`/persons?${q}`), q);
          const path = `/persons/${encodeURIComponent(raw)}`;
          expectContractAnswer(await call.get(path), raw);
          expectContractAnswer(await call.patch(path, {}), raw);
          expectContractAnswer(await call.delete(path), raw);
        }),
        { numRuns: RUNS },
      );
    },
    budget(4),
  );
});
