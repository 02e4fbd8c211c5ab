import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { LocalRuntime } from '../../../lib/local/runtime';
import { personBody } from '../persons/support';
import { accountBody } from '../verify-accounts/support';
import { ACCOUNT_NUMBERS as ACCOUNT, EIN, type RecordingApi, SSNS, STATEMENT_CODES, STRAY_EIN } from './support';

/**
 * One scenario per route of the route table, keyed by its route key, run in this order:
 * each sends the secrets where a partner would (success), where it does not belong
 * (invalid and unknown fields, malformed JSON, query parameters, path ids), and on the
 * route's error paths (unknown or another tenant's ids, conflicts, limits).
 */
export interface Context {
  readonly runtime: LocalRuntime;
  /** The tenant whose data this is. */
  readonly alice: RecordingApi;
  /** Another tenant: every id of Alice's answers it 404. */
  readonly bob: RecordingApi;
  /** Alice's bearer tokens, and a webhook secret that is not hers (sent where it does not belong). */
  readonly tokens: { readonly alice: string; readonly expired: string };
  readonly strayWebhookSecret: string;
  readonly receiverUrl: (path: string) => string;
  /** What scenarios hand on to later ones. */
  readonly state: {
    webhookSecrets: string[];
    configurationId?: string;
    accounts: Record<'status' | 'ownership' | 'control', string>;
    persons: Record<'verified' | 'closed', string>;
    eventId?: string;
  };
}

type Scenario = (context: Context) => Promise<void>;

const digits = (secret: { forms: readonly string[] }) => secret.forms[1] as string;
const dashed = (secret: { forms: readonly string[] }) => secret.forms[0] as string;
const code = (index: number) => STATEMENT_CODES[index]?.forms[0] as string;

const ok = (response: { status: number }, status = 200) => expect(response.status).toBe(status);
const refused = (response: { status: number; body: { error_code?: string } }, status: number, errorCode?: string) => {
  expect(response.status).toBe(status);
  if (errorCode) expect(response.body.error_code).toBe(errorCode);
};

/** An address and date of birth, so identification runs every check. */
const person = (ssn: string, over: Record<string, unknown> = {}) =>
  personBody({ social_security_number: ssn, ...over });

export const SCENARIOS: Record<string, Scenario> = {
  'POST /webhooks/secret': async ({ alice, bob, state, strayWebhookSecret }) => {
    for (let rotation = 0; rotation < 2; rotation++) {
      const created = await alice.post('/webhooks/secret', { secret: strayWebhookSecret });
      ok(created);
      state.webhookSecrets.push(created.body.webhook_secret.secret);
    }
    ok(await bob.post('/webhooks/secret'));
  },

  'GET /webhooks/secret': async ({ alice, state }) => {
    const current = await alice.get('/webhooks/secret');
    ok(current);
    expect(current.body.webhook_secret.secret).toBe(state.webhookSecrets.at(-1));
  },

  'POST /webhooks/configurations': async ({ alice, bob, receiverUrl, state, strayWebhookSecret, tokens }) => {
    const configured = await alice.post('/webhooks/configurations', {
      url: receiverUrl('/ok'),
      event_types: ['subscribe_all'],
      enabled: true,
    });
    ok(configured);
    state.configurationId = configured.body.webhook_configuration.id;
    // A receiver that fails every other attempt: deliveries are retried, each attempt recorded.
    ok(
      await alice.post('/webhooks/configurations', {
        url: receiverUrl('/flaky'),
        event_types: ['subscribe_all'],
        enabled: true,
      }),
    );
    ok(
      await bob.post('/webhooks/configurations', {
        url: receiverUrl('/bob'),
        event_types: ['subscribe_all'],
        enabled: true,
      }),
    );
    const url = `https://partner:${strayWebhookSecret}@hooks.example.com/hook`;
    refused(
      await alice.post('/webhooks/configurations', { url, event_types: ['person_all'], enabled: true }),
      400,
      'invalid_url',
    );
    refused(
      await alice.post('/webhooks/configurations', {
        url: receiverUrl('/ok'),
        event_types: [dashed(SSNS.stray), tokens.alice],
        enabled: true,
      }),
      400,
      'invalid_event_types',
    );
    refused(
      await alice.post('/webhooks/configurations', {
        url: receiverUrl('/ok'),
        event_types: ['person_all'],
        enabled: true,
        secret: strayWebhookSecret,
      }),
      400,
      'unknown_field',
    );
  },

  'GET /webhooks/configurations': async ({ alice }) => {
    ok(await alice.get('/webhooks/configurations'));
  },

  'PUT /webhooks/configurations/{id}': async ({ alice, bob, receiverUrl, state, strayWebhookSecret }) => {
    const path = `/webhooks/configurations/${state.configurationId}`;
    const body = { url: receiverUrl('/ok'), event_types: ['subscribe_all'], enabled: true };
    ok(await alice.put(path, body));
    refused(await bob.put(path, body), 404, 'unknown_id_webhook_configuration');
    refused(await alice.put(path, { ...body, enabled: strayWebhookSecret }), 400, 'invalid_enabled');
    refused(await alice.put(`/webhooks/configurations/${digits(SSNS.stray)}`, body), 404);
  },

  'DELETE /webhooks/configurations/{id}': async ({ alice, bob, receiverUrl }) => {
    const extra = await alice.post('/webhooks/configurations', {
      url: receiverUrl('/deleted'),
      event_types: ['person_all'],
      enabled: true,
    });
    const path = `/webhooks/configurations/${extra.body.webhook_configuration.id}`;
    refused(await bob.delete(path), 404, 'unknown_id_webhook_configuration');
    ok(await alice.delete(path), 204);
    refused(await alice.delete(`/webhooks/configurations/${dashed(SSNS.stray)}`), 404);
  },

  'POST /verify/accounts': async ({ alice, runtime, state, tokens, strayWebhookSecret }) => {
    const create = (over: Record<string, unknown>, headers?: Record<string, string>) =>
      alice.post('/verify/accounts', accountBody(over), { headers });
    const status = await create({ account_number: ACCOUNT.status });
    ok(status);
    const owner = { first_name: 'Jane', last_name: 'Doe', ssn: digits(SSNS.owner), phone_number: '+14155550123' };
    const ownership = await create(
      { account_number: ACCOUNT.ownership, type: 'status_ownership', person: owner },
      { 'idempotency-key': 'pii-ownership' },
    );
    ok(ownership);
    // The same key with another body: 422, and nothing of the new body is kept.
    refused(
      await create(
        { account_number: ACCOUNT.ownership, type: 'status_ownership', person: { ...owner, ssn: digits(SSNS.stray) } },
        { 'idempotency-key': 'pii-ownership' },
      ),
      422,
      'idempotency_key_reused',
    );
    ok(
      await create({
        account_number: ACCOUNT.business,
        type: 'control_ownership',
        business: { business_name: 'Doe Ltd', tax_id: digits(EIN) },
      }),
    );
    ok(
      await create({
        account_number: ACCOUNT.invalid,
        type: 'status_ownership',
        person: { ...owner, ssn: digits(SSNS.owner) },
      }),
    );
    const control = await create({ account_number: ACCOUNT.control, type: 'control', email: 'holder@example.com' });
    ok(control);
    state.accounts = {
      status: status.body.account.id,
      ownership: ownership.body.account.id,
      control: control.body.account.id,
    };

    refused(
      await create({ type: 'status_ownership', person: { ...owner, ssn: dashed(SSNS.owner) } }),
      400,
      'invalid_person',
    );
    refused(
      await create({ type: 'status_ownership', business: { business_name: 'Doe Ltd', tax_id: dashed(EIN) } }),
      400,
      'invalid_business',
    );
    refused(await create({ account_number: dashed(SSNS.stray) }), 400, 'invalid_account_number');
    refused(await create({ routing_number: dashed(STRAY_EIN) }), 400, 'invalid_routing_number');
    refused(await create({ account_holder_name: tokens.alice }), 400, 'invalid_account_holder_name');
    refused(
      await create({ ssn: digits(SSNS.stray), tax_id: digits(STRAY_EIN), webhook_secret: strayWebhookSecret }),
      400,
      'unknown_field',
    );
    refused(
      await alice.post('/verify/accounts', `{"account_number":"${ACCOUNT.status}","ssn":"${dashed(SSNS.stray)}"`),
      400,
      'invalid_json',
    );
    // Five verifications of one bank account in 24 h, then 429.
    for (let n = 0; n < 5; n++) ok(await create({ account_number: ACCOUNT.limited }));
    refused(await create({ account_number: ACCOUNT.limited }), 429, 'too_many_verifications');
    await runtime.settle();
  },

  'GET /verify/accounts': async ({ alice }) => {
    ok(await alice.get(`/verify/accounts?account_number=${ACCOUNT.ownership}`));
    refused(await alice.get(`/verify/accounts?ssn=${digits(SSNS.stray)}`), 400, 'unknown_parameter');
    refused(await alice.get(`/verify/accounts?id=${digits(SSNS.stray)}`), 400, 'invalid_account_id');
    refused(
      await alice.get(`/verify/accounts?verification_status=${digits(STRAY_EIN)}`),
      400,
      'invalid_verification_status',
    );
    refused(
      await alice.get(`/verify/accounts?account_number=${ACCOUNT.status}&account_number=${ACCOUNT.control}`),
      400,
    );
  },

  'GET /verify/accounts/{id}': async ({ alice, bob, state }) => {
    ok(await alice.get(`/verify/accounts/${state.accounts.ownership}`));
    refused(await bob.get(`/verify/accounts/${state.accounts.ownership}`), 404, 'unknown_id');
    refused(await alice.get(`/verify/accounts/${digits(SSNS.stray)}`), 400, 'invalid_id');
    refused(await alice.get(`/verify/accounts/${ACCOUNT.status}`), 400, 'invalid_id');
  },

  'POST /verify/accounts/{id}/control': async ({ alice, bob, state }) => {
    const path = `/verify/accounts/${state.accounts.control}/control`;
    refused(await alice.post(path, { statement_code: code(0) }), 400, 'incorrect_statement_code');
    refused(await alice.post(path, { statement_code: code(1).toLowerCase() }), 400, 'incorrect_statement_code');
    refused(await alice.post(path, { statement_code: dashed(SSNS.stray) }), 400, 'invalid_statement_code');
    refused(await bob.post(path, { statement_code: code(2) }), 404, 'unknown_id');
    refused(
      await alice.post(`/verify/accounts/${state.accounts.status}/control`, { statement_code: code(2) }),
      400,
      'control_not_requested',
    );
    ok(await alice.post(path, { statement_code: '0000' }));
  },

  'POST /verify/accounts/{id}/debits': async ({ alice, bob, runtime, state }) => {
    const path = `/verify/accounts/${state.accounts.status}/debits`;
    ok(await alice.post(path));
    refused(await alice.post(path, { ssn: digits(SSNS.stray) }), 400, 'unknown_field');
    refused(await bob.post(path), 404, 'unknown_id');
    await runtime.settle();
  },

  'POST /persons': async ({ alice, runtime, state }) => {
    const verified = await alice.post(
      '/persons',
      person(dashed(SSNS.person), { first_name: 'Quinn', last_name: 'Quarry' }),
    );
    ok(verified);
    ok(await alice.post('/persons', person(digits(SSNS.rejected))));
    const closed = await alice.post('/persons', person(digits(SSNS.stray)));
    state.persons = { verified: verified.body.person.id, closed: closed.body.person.id };
    const reference = verified.body.person.customer_reference_id;
    refused(
      await alice.post('/persons', person(dashed(SSNS.stray), { customer_reference_id: reference })),
      409,
      'duplicate_customer_reference_id',
    );
    refused(await alice.post('/persons', person(dashed(EIN))), 400, 'invalid_social_security_number');
    refused(
      await alice.post('/persons', person(dashed(SSNS.stray), { tax_id: dashed(STRAY_EIN) })),
      400,
      'unknown_field',
    );
    refused(await alice.post('/persons', person(`${digits(SSNS.stray)}0`)), 400, 'invalid_social_security_number');
    await runtime.settle();
  },

  'GET /persons': async ({ alice }) => {
    ok(await alice.get('/persons?first_name=Quinn'));
    refused(await alice.get(`/persons?social_security_number=${dashed(SSNS.person)}`), 400, 'unknown_parameter');
    refused(await alice.get(`/persons?id=${digits(SSNS.person)}`), 400, 'invalid_orum_id');
  },

  'GET /persons/{id}': async ({ alice, bob, state }) => {
    ok(await alice.get(`/persons/${state.persons.verified}`));
    refused(await bob.get(`/persons/${state.persons.verified}`), 404, 'unknown_id_person');
    refused(await alice.get(`/persons/${digits(SSNS.person)}`), 404, 'unknown_id_person');
  },

  'DELETE /persons/{id}': async ({ alice, bob, state }) => {
    refused(await bob.delete(`/persons/${state.persons.closed}`), 404, 'unknown_id_person');
    ok(await alice.delete(`/persons/${state.persons.closed}`));
    refused(await alice.delete(`/persons/${dashed(SSNS.stray)}`), 404, 'unknown_id_person');
  },

  'PATCH /persons/{id}': async ({ alice, bob, runtime, state }) => {
    const path = `/persons/${state.persons.verified}`;
    ok(await alice.patch(path, { social_security_number: dashed(SSNS.patched) }));
    refused(
      await alice.patch(path, { social_security_number: `${dashed(SSNS.stray)}-1` }),
      400,
      'invalid_social_security_number',
    );
    refused(await alice.patch(path, { tax_id: digits(STRAY_EIN) }), 400, 'unknown_field');
    refused(await bob.patch(path, { social_security_number: dashed(SSNS.stray) }), 404, 'unknown_id_person');
    refused(
      await alice.patch(`/persons/${state.persons.closed}`, { social_security_number: dashed(SSNS.stray) }),
      409,
      'person_closed',
    );
    await runtime.settle();
  },

  'PUT /persons/{id}': async ({ alice, bob, runtime, state }) => {
    const path = `/persons/${state.persons.verified}`;
    const current = (await alice.get(path)).body.person;
    const replacement = person(digits(SSNS.replaced), {
      customer_reference_id: current.customer_reference_id,
      first_name: 'Quinn',
      last_name: 'Quarry',
    });
    ok(await alice.put(path, replacement));
    refused(await bob.put(path, replacement), 404, 'unknown_id_person');
    refused(await alice.put(path, { ...replacement, social_security_number: dashed(STRAY_EIN) }), 400);
    await runtime.settle();
  },

  'PUT /persons': async ({ alice, runtime }) => {
    const body = person(dashed(SSNS.upserted));
    ok(await alice.put('/persons', body));
    ok(await alice.put('/persons', { ...body, social_security_number: digits(SSNS.upserted) }));
    refused(await alice.put('/persons', { ...body, ssn: digits(SSNS.stray) }), 400, 'unknown_field');
    await runtime.settle();
  },

  'POST /local/sanctions/entries': async ({ alice, runtime }) => {
    // The verified person's name: the screening worker restricts them.
    const added = await alice.post('/local/sanctions/entries', { name: 'QUARRY, Quinn' });
    ok(added, 201);
    refused(await alice.post('/local/sanctions/entries', { name: 'Some One', date_of_birth: dashed(SSNS.stray) }), 400);
    refused(
      await alice.post('/local/sanctions/entries', { name: 'Some One', ssn: digits(SSNS.stray) }),
      400,
      'unknown_field',
    );
    await runtime.settle();
  },

  'POST /webhooks/invoke': async ({ alice, runtime }) => {
    ok(await alice.post('/webhooks/invoke', { event_type: 'person_verified' }), 201);
    // Orum's test request takes the person itself; one copied from a create request carries the SSN.
    const person = { id: randomUUID(), first_name: 'Test', social_security_number: dashed(SSNS.stray) };
    refused(await alice.post('/webhooks/invoke', { event_type: 'person_verified', data: person }), 400, 'invalid_data');
    const account = { id: randomUUID(), business: { business_name: 'Doe Ltd', tax_id: digits(STRAY_EIN) } };
    refused(
      await alice.post('/webhooks/invoke', { event_type: 'verify_account_updated', data: { account } }),
      400,
      'invalid_data',
    );
    refused(await alice.post('/webhooks/invoke', { event_type: digits(SSNS.stray) }), 400, 'invalid_event_type');
    await runtime.settle();
  },

  'GET /events': async ({ alice, state }) => {
    const listed = await alice.get('/events?size=500');
    ok(listed);
    state.eventId = listed.body.events[0]?.event_id;
    expect(state.eventId).toBeDefined();
    refused(await alice.get(`/events?event_type=${digits(SSNS.stray)}`), 400, 'invalid_event_type');
    refused(await alice.get(`/events?ssn=${digits(SSNS.stray)}`), 400, 'unknown_parameter');
  },

  'GET /events/{id}': async ({ alice, bob, state }) => {
    ok(await alice.get(`/events/${state.eventId}`));
    refused(await bob.get(`/events/${state.eventId}`), 404, 'unknown_id_event');
    refused(await alice.get(`/events/${digits(SSNS.stray)}`), 400, 'invalid_id');
  },

  'POST /events/{id}/redeliver': async ({ alice, bob, runtime, state, strayWebhookSecret }) => {
    const path = `/events/${state.eventId}/redeliver`;
    ok(await alice.post(path), 202);
    refused(await alice.post(path, { secret: strayWebhookSecret }), 400, 'unknown_field');
    refused(await bob.post(path), 404, 'unknown_id_event');
    await runtime.settle();
  },
};
