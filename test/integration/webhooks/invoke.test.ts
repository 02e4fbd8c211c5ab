import { beforeAll, describe, expect, it } from 'vitest';
import { retryingClient } from '#test/support/retrying-client';
import { stopClock } from '#test/support/stopped-clock';
import { accountBody, freshAccountNumber, useVerifyRuntime } from '../verify-accounts/support';
import { type RecordedWebhook, recordWebhooks } from './support';

/**
 * POST /webhooks/invoke end to end: the test event is stored, fanned out to the tenant's
 * `subscribe_all` configuration and delivered, as Orum's trigger schema describes it.
 */
const env = useVerifyRuntime();
let received: RecordedWebhook[];
beforeAll(async () => {
  received = await recordWebhooks(env.clients.alice);
});

// Test events are paced with redelivery (10 at once, then one a second): this file sends more
// than ten, so it retries a 429 after its Retry-After as a partner does (docs/api.md#retrying),
// and passes however fast the machine runs it.
const invoke = (body: Record<string, unknown> | string) =>
  retryingClient(env.clients.alice).post('/webhooks/invoke', body);

/** The envelope delivered for the test event of `eventType`, once the pipeline is at rest. */
async function delivered(eventType: string): Promise<{ event_type: string; event_data: Record<string, any> }> {
  await env.runtime.settle();
  const bodies = received.map((webhook) => JSON.parse(webhook.body)).filter((body) => body.event_type === eventType);
  expect(bodies.length, `a delivered ${eventType}`).toBeGreaterThan(0);
  return bodies[bodies.length - 1];
}

/** An ownership account once verified, exactly as `GET /verify/accounts/{id}` answers it. */
async function verifiedOwnershipAccount(owner: Record<string, unknown>): Promise<Record<string, unknown>> {
  const created = await env.clients.alice.post(
    '/verify/accounts',
    accountBody({ account_number: freshAccountNumber(), type: 'status_ownership', ...owner }),
  );
  expect(created.status).toBe(200);
  await env.runtime.settle();
  return (await env.clients.alice.get(`/verify/accounts/${created.body.account.id}`)).body.account;
}

describe('POST /webhooks/invoke: a test event says so', () => {
  it('delivers the test event with test: true in its body, which the signature covers', async () => {
    expect((await invoke({ event_type: 'person_closed' })).status).toBe(201);
    const envelope = await delivered('person_closed');
    expect(envelope).toMatchObject({ event_type: 'person_closed', test: true });
  });
});

describe('POST /webhooks/invoke: sensitive keys', () => {
  it('accepts an ownership account exactly as GET answers it (ssn_match, tax_id_match): 201, delivered as sent', async () => {
    const withPerson = await verifiedOwnershipAccount({
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' },
    });
    const withBusiness = await verifiedOwnershipAccount({
      business: { business_name: 'Jane Doe', tax_id: '123456780' },
    });
    expect(withPerson.person).toHaveProperty('ssn_match');
    expect(withBusiness.business).toHaveProperty('tax_id_match');

    for (const account of [withPerson, withBusiness]) {
      const response = await invoke({ event_type: 'verify_account_updated', data: account });
      expect(response.status).toBe(201);
    }
    await env.runtime.settle();
    const sent = received.map((webhook) => JSON.parse(webhook.body));
    for (const account of [withPerson, withBusiness]) {
      expect(sent).toContainEqual(expect.objectContaining({ event_data: { account } }));
    }
  });

  it.each([
    ['ssn', { person: { ssn: '078051120' } }],
    ['social_security_number', { social_security_number: '078-05-1120' }],
    ['tax_id', { business: { tax_id: '123456780' } }],
    ['statement_code', { statement_code: 'AB12' }],
    ['SSN (any case)', { person: { SSN: '078051120' } }],
    ['Tax-Id (any separator)', { business: { 'Tax-Id': '123456780' } }],
  ])('refuses a key named %s at any depth: 400 invalid_data', async (_name, data) => {
    const response = await invoke({ event_type: 'verify_account_updated', data: { id: 'x', ...data } });
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_data');
  });
});

describe('POST /webhooks/invoke: every kind of Orum’s trigger schema', () => {
  it.each([
    ['person_unverified', 'person', { status: 'created' }],
    ['business_created', 'business', { status: 'created', legal_name: expect.any(String) }],
    ['external_account_verified', 'external_account', { status: 'verified', account_type: 'checking' }],
    ['transfer_updated', 'transfer', { status: expect.any(String), currency: 'USD' }],
    ['subledger_created', 'subledger', { status: 'created', customer_resource_type: expect.any(String) }],
    ['book_transfer_updated', 'book_transfer', { status: expect.any(String), currency: 'USD' }],
  ])(
    'sends a sample %s (a kind the service never emits): 201, the sample under event_data.%s',
    async (eventType, record, sample) => {
      const response = await invoke({ event_type: eventType });
      expect(response.status).toBe(201);
      const envelope = await delivered(eventType);
      expect(Object.keys(envelope.event_data)).toEqual([record]);
      expect(envelope.event_data[record]).toMatchObject({
        id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        ...sample,
      });
    },
  );

  it('sends a business exactly as Orum’s test request gives it, tax_id_type included', async () => {
    const business = {
      id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
      customer_reference_id: 'biz-1',
      legal_name: 'Sample Holdings LLC',
      tax_id_type: 'ein',
      status: 'verified',
      created_at: '2026-01-16T15:30:00.000Z',
      updated_at: '2026-01-16T15:30:00.000Z',
    };
    expect((await invoke({ event_type: 'business_verified', data: business })).status).toBe(201);
    const envelope = await delivered('business_verified');
    expect(envelope.event_data).toEqual({ business });
  });

  it('still refuses a kind no schema lists: 400 invalid_event_type', async () => {
    const response = await invoke({ event_type: 'person_deleted' });
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_event_type');
  });
});

describe('POST /webhooks/invoke: data the event log could not store as sent', () => {
  /** The body as JSON text, so `__proto__` arrives as a key and big numbers as written. */
  const invokeRaw = (data: string) => invoke(`{"event_type":"person_verified","data":${data}}`);

  it.each([
    ['a number beyond 2^53 − 1', '{"n":12345678901234567890}'],
    ['a number beyond −(2^53 − 1)', '{"n":-1e300}'],
    ['a number under 1e-130 in size', '{"n":[1e-131]}'],
    ['an empty key', '{"":1}'],
    ['an empty key at depth', '{"a":{"":1}}'],
    ['a key named constructor', '{"constructor":"x"}'],
    ['a key named constructor at depth', '{"a":[{"constructor":{"b":1}}]}'],
    ['a key named __proto__', '{"__proto__":{"polluted":true}}'],
    ['a key named __proto__ at depth', '{"a":{"__proto__":"x"}}'],
  ])('refuses data holding %s: 400 invalid_data', async (_what, data) => {
    const response = await invokeRaw(data);
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_data');
  });

  it('delivers data at the bounds exactly as sent: ±(2^53 − 1), 1e-130, inherited names such as toString', async () => {
    const data = { id: 'bounds', max: 9007199254740991, min: -9007199254740991, tiny: 1e-130, toString: 'x' };
    expect((await invoke({ event_type: 'person_rejected', data })).status).toBe(201);
    const envelope = await delivered('person_rejected');
    expect(envelope.event_data).toEqual({ person: data });
  });
});

describe('POST /webhooks/invoke: a paced 429 is not kept under its Idempotency-Key', () => {
  it('runs the same request with the same key once Retry-After has passed, instead of replaying the 429', async () => {
    const bob = env.clients.bob;
    // At one instant, however long the machine takes to serve the requests: the budget
    // refills one a second, as fast as a loaded machine may spend it.
    const clock = stopClock();
    let first: { status: number; headers: Record<string, string>; body: any };
    try {
      // Spend bob's budget (10 at once) with requests of their own keys.
      for (let n = 0; n < 10; n++) {
        const spent = await bob.post(
          '/webhooks/invoke',
          { event_type: 'person_closed' },
          { headers: { 'idempotency-key': `spend-${n}` } },
        );
        expect(spent.status).toBe(201);
      }

      const key = { headers: { 'idempotency-key': 'paced-then-retried' } };
      first = await bob.post('/webhooks/invoke', { event_type: 'person_closed' }, key);
      expect([first.status, first.body.error_code]).toEqual([429, 'invoke_rate_exceeded']);
      const wait = Number(first.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      clock.advance(wait * 1000);

      first = await bob.post('/webhooks/invoke', { event_type: 'person_closed' }, key);
    } finally {
      clock.restart();
    }
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  });
});
