import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { storedEvents } from '#shared/db/stored-events/index';
import { eventKeys } from '#shared/db/stored-events/keys';
import { stopClock } from '#test/support/stopped-clock';
import { api } from '../harness';
import { useWebhooksRuntime } from '../webhooks/support';

/**
 * A test event (`POST /webhooks/invoke`) must never pass for a real one
 * (docs/api.md#test-event): it is marked `test: true` wherever it is shown, the event
 * log lists it only when asked (`test=true`), and sending one is paced with redelivery,
 * 10 at once then one a second per tenant (issue 27).
 */
const env = useWebhooksRuntime();

type Client = ReturnType<typeof api>;
const clientOf = async (tenant: string): Promise<Client> => api(env.runtime, await env.runtime.mintToken(tenant));
const ids = (answer: { body: { events: { event_id: string }[] } }) => answer.body.events.map((e) => e.event_id);

/** An event of a real change, as the stream router stores it (no pipeline runs here). */
async function realEvent(tenant: string): Promise<string> {
  const event_id = randomUUID();
  await storedEvents().store(tenant, {
    event_id,
    event_type: 'verify_account_updated',
    created_at: new Date(Date.now() - 60_000).toISOString(),
    event_data: { account: { id: randomUUID(), verification_status: 'valid' } },
  });
  return event_id;
}

/** Sends a test event and answers its id, read from the test list. */
async function testEvent(client: Client, body: Record<string, unknown>): Promise<string> {
  expect((await client.post('/webhooks/invoke', body)).status).toBe(201);
  return (await client.get('/events?test=true&size=1')).body.events[0]?.event_id;
}

describe('the event log tells test events apart', () => {
  it('GET /events lists only real events unless asked: a test event with a real account id and valid status is not among them', async () => {
    const client = await clientOf('tenant-test-events-list');
    const real = await realEvent('tenant-test-events-list');
    const test = await testEvent(client, {
      event_type: 'verify_account_updated',
      data: { id: randomUUID(), verification_status: 'valid' },
    });

    const listed = await client.get('/events');

    expect(listed.status).toBe(200);
    expect(ids(listed)).toEqual([real]);
    expect(listed.body.events[0]).not.toHaveProperty('test');
    expect(test).toBeDefined();
  });

  it('GET /events?test=true lists only test events, each marked test: true', async () => {
    const client = await clientOf('tenant-test-events-only');
    await realEvent('tenant-test-events-only');
    const first = await testEvent(client, { event_type: 'person_created' });
    const second = await testEvent(client, { event_type: 'verify_account_updated' });

    const listed = await client.get('/events?test=true');

    expect(ids(listed)).toEqual([second, first]);
    expect(listed.body.events.map((e: { test?: boolean }) => e.test)).toEqual([true, true]);
    expect(ids(await client.get('/events?test=false'))).toHaveLength(1);
  });

  it('GET /events/{id} answers a test event, marked test: true, and a real one unmarked', async () => {
    const client = await clientOf('tenant-test-events-get');
    const real = await realEvent('tenant-test-events-get');
    const test = await testEvent(client, { event_type: 'person_verified' });

    const shownTest = await client.get(`/events/${test}`);
    const shownReal = await client.get(`/events/${real}`);

    expect([shownTest.status, shownTest.body.event.test]).toEqual([200, true]);
    expect(shownReal.status).toBe(200);
    expect(shownReal.body.event).not.toHaveProperty('test');
  });

  it('the cursor of the test list leads only to test events', async () => {
    const client = await clientOf('tenant-test-events-cursor');
    await realEvent('tenant-test-events-cursor');
    const first = await testEvent(client, { event_type: 'person_created' });
    const second = await testEvent(client, { event_type: 'person_closed' });

    const page = await client.get('/events?test=true&size=1');
    const next = /^<([^>]+)>/.exec(page.headers.link ?? '')?.[1] as string;
    const after = await client.get(next);

    expect([...ids(page), ...ids(after)]).toEqual([second, first]);
  });

  it('refuses a test filter that is not true or false: 400 invalid_test', async () => {
    const client = await clientOf('tenant-test-events-filter');
    const refused = await client.get('/events?test=yes');
    expect([refused.status, refused.body.error_code]).toEqual([400, 'invalid_test']);
  });
});

describe('POST /webhooks/invoke is paced like redelivery', () => {
  it('a tenant sends 10 test events at once, then one a second: 429 invoke_rate_exceeded with Retry-After, nothing stored', async () => {
    const client = await clientOf('tenant-test-events-pace');
    const invoke = () => client.post('/webhooks/invoke', { event_type: 'person_created' });
    // The burst at one instant, however long the machine takes to serve it.
    const clock = stopClock();
    let answers: Awaited<ReturnType<typeof invoke>>[];
    try {
      answers = await Promise.all(Array.from({ length: 20 }, invoke));
      // One that keeps losing the admission race to others of the same moment is refused too.
      const sent = answers.filter((answer) => answer.status === 201).length;
      expect(sent).toBeGreaterThanOrEqual(1);
      expect(sent).toBeLessThanOrEqual(10);
      // What the races left of the 10 goes one at a time; then nothing until a second passes.
      for (let spent = sent; spent < 10; spent++) answers.push(await invoke());
      answers.push(await invoke());
      clock.advance(1_000);
      answers.push(await invoke(), await invoke());
    } finally {
      clock.restart();
    }

    const sent = answers.filter((answer) => answer.status === 201);
    expect(sent).toHaveLength(11);
    expect(answers.slice(-3).map((answer) => answer.status)).toEqual([429, 201, 429]);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect([answer.status, answer.body.error_code]).toEqual([429, 'invoke_rate_exceeded']);
      const retryAfter = Number(answer.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
      expect(answer.body.details).toEqual({ retry_after_seconds: retryAfter });
    }
    expect(ids(await client.get('/events?test=true&size=100'))).toHaveLength(sent.length);
  });

  it('test events and redeliveries share the tenant’s budget: a test event steps the pace redelivery reads, and a spent pace refuses both', async () => {
    const tenant = 'tenant-test-events-shared';
    const client = await clientOf(tenant);
    const real = await realEvent(tenant);
    const pace = { TableName: tableName(), Key: eventKeys.redeliveryPace(tenant) };

    expect((await client.post('/webhooks/invoke', { event_type: 'person_created' })).status).toBe(201);
    const stepped = (await documentClient().send(new GetCommand({ ...pace, ConsistentRead: true }))).Item;
    // One step from idle: the pace item exists, `tat` a second after the invoke.
    expect(stepped?.tat).toBeGreaterThan(Date.now() - 60_000);
    // As if the tenant had just sent 60 redeliveries or test events (a wall-clock race would be flaky here).
    await documentClient().send(
      new PutCommand({ TableName: pace.TableName, Item: { ...stepped, tat: Date.now() + 60_000 } }),
    );

    const invoked = await client.post('/webhooks/invoke', { event_type: 'person_created' });
    const redelivered = await client.post(`/events/${real}/redeliver`, {});

    expect([invoked.status, invoked.body.error_code]).toEqual([429, 'invoke_rate_exceeded']);
    expect([redelivered.status, redelivered.body.error_code]).toEqual([429, 'redelivery_rate_exceeded']);
  });
});
