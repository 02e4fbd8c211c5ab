import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { ENTITY } from '#shared/db/entities';
import { IDEMPOTENCY_LOCK_MS } from '#shared/db/idempotency/index';
import { personKeys } from '#shared/db/persons/keys';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { webhookConfigurationKeys } from '#shared/db/webhook-configurations/keys';
import { SERVICE_SCOPES } from '#shared/scopes';
import { type ApiResponse, api, startTestRuntime } from '#test/integration/harness';
import { personBody } from '#test/integration/persons/support';
import { accountBody, freshAccountNumber } from '#test/integration/verify-accounts/support';
import { configurationBody, useTestDns } from '#test/integration/webhooks/support';
import { stopClock } from '#test/support/stopped-clock';
import { putsItemOf, withTheTableAwayAfter, writesItem } from '#test/support/table-away';

/**
 * The last duplicate a retry could make (issue 46 item 6): the table goes away right after a
 * request did its work, before its Idempotency-Key's record holds the answer, and stays
 * away longer than the function's time. The request cannot keep its answer, its key's hold
 * lapses, and the partner's retry with the key, once the table is back, ran again: a second
 * verification, a second use of a statement-code attempt. The answer is kept in the
 * transaction of the work itself, so a request that did its work has its record: it
 * answers, and the retry answers the same with `Idempotent-Replayed: true`, the work done
 * once.
 */
const TENANT = 'tenant-away';
/** A short function time, so a request that keeps trying to store its answer gives up soon. */
const FUNCTION_TIMEOUT_MS = 4_000;

let runtime: LocalRuntime;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime({ functionTimeoutMs: FUNCTION_TIMEOUT_MS });
  useTestDns();
  call = api(runtime, await runtime.mintToken(TENANT, SERVICE_SCOPES));
});
afterAll(() => runtime?.stop());

/**
 * `send` (a request with an Idempotency-Key) while the table goes away right after the
 * write `isTheWork` picks, and again with the same key once the table is back and the
 * first request's hold on the key has lapsed, as the partner's retry.
 */
async function acrossTheTableGoingAway(isTheWork: (command: unknown) => boolean, send: () => Promise<ApiResponse>) {
  const clock = stopClock();
  try {
    const first = await withTheTableAwayAfter(isTheWork, send);
    clock.advance(IDEMPOTENCY_LOCK_MS + 1_000);
    const retry = await send();
    return { first, retry };
  } finally {
    clock.restart();
  }
}

/** The request answered for its work, and the retry replayed that answer. */
function expectTheAnswerReplayed({ first, retry }: { first: ApiResponse; retry: ApiResponse }, status: number) {
  expect(first.status).toBe(status);
  expect(retry.status).toBe(status);
  expect(retry.headers['idempotent-replayed']).toBe('true');
  expect(retry.body).toEqual(first.body);
}

const withKey = () => ({ headers: { 'Idempotency-Key': randomUUID() } });

/** How many more verifications a bank account takes today: each create with a key of its own, until one is refused. */
async function verificationsLeft(accountNumber: string): Promise<number> {
  for (let n = 0; ; n++) {
    const answer = await call.post('/verify/accounts', accountBody({ account_number: accountNumber }), withKey());
    if (answer.status === 429) return n;
    expect(answer.status).toBe(200);
  }
}

/** No identity data: identification, which would change the person meanwhile, does not start. */
const personWithoutIdentity = () =>
  personBody({ social_security_number: undefined, date_of_birth: undefined, addresses: undefined });

/** How many test events the tenant's event log lists. */
async function testEvents(): Promise<number> {
  const listed = await call.get('/events?test=true&size=500');
  return listed.body.events.length;
}

describe('a request whose work landed just before the table went away for longer than its time', () => {
  it('POST /verify/accounts: one account, one of the bank account’s five verifications, the answer replayed', async () => {
    const accountNumber = freshAccountNumber();
    const options = withKey();
    const sent = await acrossTheTableGoingAway(putsItemOf(ENTITY.verifyAccount), () =>
      call.post('/verify/accounts', accountBody({ account_number: accountNumber }), options),
    );

    expectTheAnswerReplayed(sent, 200);
    const listed = await call.get(`/verify/accounts?account_number=${accountNumber}`);
    expect(listed.body.accounts.map((account: { id: string }) => account.id)).toEqual([sent.first.body.account.id]);
    expect(await verificationsLeft(accountNumber)).toBe(4);
  });

  it('POST /persons: one person, the answer replayed', async () => {
    const body = personWithoutIdentity();
    const options = withKey();
    const sent = await acrossTheTableGoingAway(putsItemOf(ENTITY.person), () => call.post('/persons', body, options));

    expectTheAnswerReplayed(sent, 200);
    const listed = await call.get(`/persons?customer_reference_id=${body.customer_reference_id}`);
    expect(listed.body.persons.map((person: { id: string }) => person.id)).toEqual([sent.first.body.person.id]);
  });

  it('POST /webhooks/configurations: one configuration, the answer replayed', async () => {
    const body = configurationBody({ url: `https://hooks.example.com/${randomUUID()}` });
    const options = withKey();
    const sent = await acrossTheTableGoingAway(putsItemOf(ENTITY.webhookConfiguration), () =>
      call.post('/webhooks/configurations', body, options),
    );

    expectTheAnswerReplayed(sent, 200);
    const listed = await call.get('/webhooks/configurations');
    const made = listed.body.webhook_configurations.filter((c: { url: string }) => c.url === body.url);
    expect(made.map((c: { id: string }) => c.id)).toEqual([sent.first.body.webhook_configuration.id]);
  });

  it('POST /verify/accounts/{id}/control with a wrong code: one attempt used, the 400 replayed', async () => {
    const created = await call.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber(), type: 'control' }),
    );
    const id = created.body.account.id as string;
    await runtime.settle();
    const options = withKey();
    const sent = await acrossTheTableGoingAway(writesItem(accountKeys.account(TENANT, id)), () =>
      call.post(`/verify/accounts/${id}/control`, { statement_code: 'AB12' }, options),
    );

    expectTheAnswerReplayed(sent, 400);
    expect(sent.first.body).toMatchObject({ error_code: 'incorrect_statement_code', attempts_remaining: 2 });
    const next = await call.post(`/verify/accounts/${id}/control`, { statement_code: 'AB12' }, withKey());
    expect(next.body.attempts_remaining).toBe(1);
  });

  it('POST /verify/accounts/{id}/debits: one re-check, one more of the five verifications, the answer replayed', async () => {
    const accountNumber = freshAccountNumber();
    const created = await call.post('/verify/accounts', accountBody({ account_number: accountNumber }));
    const id = created.body.account.id as string;
    await runtime.settle();
    const options = withKey();
    const sent = await acrossTheTableGoingAway(writesItem(accountKeys.account(TENANT, id)), () =>
      call.post(`/verify/accounts/${id}/debits`, undefined, options),
    );

    expectTheAnswerReplayed(sent, 200);
    expect(sent.first.body.account).toMatchObject({ id, debit_status: 'pending' });
    await runtime.settle();
    expect(await verificationsLeft(accountNumber)).toBe(3);
  });

  it('PATCH /persons/{id}: one change, the answer replayed', async () => {
    const created = await call.post('/persons', personWithoutIdentity());
    const id = created.body.person.id as string;
    const options = withKey();
    const sent = await acrossTheTableGoingAway(writesItem(personKeys.person(TENANT, id)), () =>
      call.patch(`/persons/${id}`, { metadata: { tier: 'gold' } }, options),
    );

    expectTheAnswerReplayed(sent, 200);
    expect(sent.first.body.person.metadata).toEqual({ tier: 'gold' });
  });

  it('DELETE /persons/{id}: the closing answer replayed', async () => {
    const created = await call.post('/persons', personWithoutIdentity());
    const id = created.body.person.id as string;
    const options = withKey();
    const sent = await acrossTheTableGoingAway(writesItem(personKeys.person(TENANT, id)), () =>
      call.delete(`/persons/${id}`, options),
    );

    expectTheAnswerReplayed(sent, 200);
    expect(sent.first.body.person).toMatchObject({ id, status: 'closed' });
  });

  it('POST /webhooks/invoke: one test event, the 201 replayed', async () => {
    const before = await testEvents();
    const options = withKey();
    const sent = await acrossTheTableGoingAway(putsItemOf(ENTITY.event), () =>
      call.post('/webhooks/invoke', { event_type: 'person_created' }, options),
    );

    expectTheAnswerReplayed(sent, 201);
    expect(await testEvents()).toBe(before + 1);
  });

  it('DELETE /webhooks/configurations/{id}: the 204 replayed, not 404 for its own deletion', async () => {
    const created = await call.post(
      '/webhooks/configurations',
      configurationBody({ url: `https://hooks.example.com/${randomUUID()}` }),
    );
    const id = created.body.webhook_configuration.id as string;
    const options = withKey();
    const sent = await acrossTheTableGoingAway(writesItem(webhookConfigurationKeys.configuration(TENANT, id)), () =>
      call.delete(`/webhooks/configurations/${id}`, options),
    );

    expectTheAnswerReplayed(sent, 204);
  });
});
