import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storedEvents } from '#shared/db/stored-events/index';
import { stopClock } from '#test/support/stopped-clock';
import { api } from '../harness';
import { useWebhooksRuntime } from '../webhooks/support';

/**
 * Redelivery is bounded (docs/api.md#redelivery-limits): per event and per tenant, each
 * refusal a 429 in the contract's shape with `Retry-After`, counted atomically so
 * concurrent requests cannot pass the bound.
 */
const env = useWebhooksRuntime();

type Client = ReturnType<typeof api>;

async function tenantClient(tenant: string): Promise<Client> {
  return api(env.runtime, await env.runtime.mintToken(tenant));
}

/**
 * Stores `n` events of the tenant, as the stream router stores them, and answers their ids.
 * Not test events: `POST /webhooks/invoke` spends the very budget these tests measure.
 */
async function storeEvents(tenant: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomUUID());
  for (const event_id of ids) {
    const event_data = { person: { id: randomUUID(), status: 'created' } };
    await storedEvents().store(tenant, {
      event_id,
      event_type: 'person_created',
      created_at: new Date().toISOString(),
      event_data,
    });
  }
  return ids;
}

function expectRefused(answer: { status: number; headers: Record<string, string>; body: any }, code: string) {
  expect(answer.status).toBe(429);
  expect(answer.body.error_code).toBe(code);
  const retryAfter = Number(answer.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(answer.body.details).toMatchObject({ retry_after_seconds: retryAfter });
}

describe('redelivery limits', () => {
  it('redelivers one event at most 5 times at once: the 6th answers 429 too_many_redeliveries with Retry-After', async () => {
    const client = await tenantClient('tenant-redeliver-event');
    const [id] = await storeEvents('tenant-redeliver-event', 1);
    for (let i = 0; i < 5; i++) expect((await client.post(`/events/${id}/redeliver`, {})).status).toBe(202);
    const refused = await client.post(`/events/${id}/redeliver`, {});
    expectRefused(refused, 'too_many_redeliveries');
    // About one more per 4.8 hours: the wait is hours, not seconds.
    expect(refused.body.details.retry_after_seconds).toBeGreaterThan(3600);
  });

  it('concurrent redeliveries of one event never pass the bound', async () => {
    const client = await tenantClient('tenant-redeliver-race');
    const [id] = await storeEvents('tenant-redeliver-race', 1);
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post(`/events/${id}/redeliver`, {})));
    const accepted = answers.filter((answer) => answer.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length).toBeLessThanOrEqual(5);
    for (const answer of answers.filter((a) => a.status !== 202)) expect(answer.status).toBe(429);
  });

  it('a tenant redelivers at most 10 events at once and then one a second: concurrent ones beyond answer 429 redelivery_rate_exceeded', async () => {
    const client = await tenantClient('tenant-redeliver-rate');
    const ids = await storeEvents('tenant-redeliver-rate', 33);
    const redeliver = async () => client.post(`/events/${ids.shift()}/redeliver`, {});
    // The burst at one instant, however long the machine takes to serve it.
    const clock = stopClock();
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, redeliver));
      const accepted = answers.filter((answer) => answer.status === 202).length;
      // One that keeps losing the admission race to others of the same moment is refused too.
      expect(accepted).toBeGreaterThanOrEqual(1);
      expect(accepted).toBeLessThanOrEqual(10);
      for (const answer of answers.filter((a) => a.status !== 202)) expectRefused(answer, 'redelivery_rate_exceeded');

      // What the races left of the 10 goes one at a time, and then nothing until a second passes.
      for (let spent = accepted; spent < 10; spent++) expect((await redeliver()).status).toBe(202);
      expectRefused(await redeliver(), 'redelivery_rate_exceeded');
      clock.advance(1_000);
      expect((await redeliver()).status).toBe(202);
      expectRefused(await redeliver(), 'redelivery_rate_exceeded');
    } finally {
      clock.restart();
    }
  });

  it('another tenant’s budget is its own, and an unknown event answers 404 without using any', async () => {
    const client = await tenantClient('tenant-redeliver-other');
    for (let i = 0; i < 12; i++) {
      expect((await client.post('/events/7d3e2b8a-4c1f-4e6a-9b0d-2f5a8c1e3d47/redeliver', {})).status).toBe(404);
    }
    const [id] = await storeEvents('tenant-redeliver-other', 1);
    expect((await client.post(`/events/${id}/redeliver`, {})).status).toBe(202);
  });
});
