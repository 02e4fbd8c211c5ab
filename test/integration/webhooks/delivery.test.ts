import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TIMEOUT_MS } from '#domain/webhook-delivery';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';
import { accountBody, freshAccountNumber } from '../verify-accounts/support';
import { startReceiver } from './receiver';

/**
 * Webhook delivery end to end through the local runtime: real HTTP receivers on
 * loopback, signatures verified with the standardwebhooks package as a partner would.
 * The retry schedule (5 s … 10 h) is compressed 100,000-fold.
 */
let runtime: LocalRuntime;
let alice: ReturnType<typeof api>;
let bob: ReturnType<typeof api>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret: string;
let failuresLeft = 0;

beforeAll(async () => {
  receiver = await startReceiver((path, n) => {
    if (path === '/down') return 503;
    if (path === '/hang') return 'hang';
    if (path === '/flaky') return n <= failuresLeft ? 500 : 204;
    return 200;
  });
  runtime = await startTestRuntime({ pipelineTimings: { queueTimeScale: 1 / 1800, queueDelayTimeScale: 1 / 100_000 } });
  alice = api(runtime, await runtime.mintToken('tenant-alice'));
  bob = api(runtime, await runtime.mintToken('tenant-bob'));
  secret = (await alice.post('/webhooks/secret', {})).body.webhook_secret.secret;
  await bob.post('/webhooks/secret', {});
});
afterAll(async () => {
  await runtime?.stop();
  await receiver?.close();
});

async function configure(client: ReturnType<typeof api>, path: string, eventTypes: string[], enabled = true) {
  const response = await client.post('/webhooks/configurations', {
    url: receiver.url(path),
    event_types: eventTypes,
    enabled,
  });
  expect(response.status).toBe(200);
  return response.body.webhook_configuration.id as string;
}

const verified = (path: string) =>
  receiver.at(path).map((request) => {
    const payload = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
      event_type: string;
      event_data: Record<string, { id: string; status?: string }>;
    };
    return { id: request.headers['webhook-id'], payload };
  });

describe('webhook delivery', () => {
  it('delivers a settled account’s verify_account_updated, signed so standardwebhooks verifies it; other tenants and disabled configurations get nothing', async () => {
    await configure(alice, '/accounts', ['verify_account_updated']);
    await configure(alice, '/disabled', ['subscribe_all'], false);
    await configure(bob, '/bob', ['subscribe_all']);
    const created = await alice.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
    await runtime.settle();
    const deliveries = verified('/accounts').filter(
      (d) => d.payload.event_data.account?.id === created.body.account.id,
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.payload.event_type).toBe('verify_account_updated');
    expect(receiver.at('/disabled')).toHaveLength(0);
    expect(receiver.at('/bob')).toHaveLength(0);
  });

  it('delivers person events to a person_all configuration: a rejected person’s person_rejected', async () => {
    await configure(alice, '/persons', ['person_all']);
    const created = await alice.post('/persons', personBody({ first_name: 'Sandy', last_name: 'Sanctioned' }));
    await runtime.settle();
    const types = verified('/persons')
      .filter((d) => d.payload.event_data.person?.id === created.body.person.id)
      .map((d) => d.payload.event_type);
    expect(types).toEqual(['person_created', 'person_rejected']);
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx, recording every attempt', async () => {
    failuresLeft = 3;
    await configure(alice, '/flaky', ['person_created']);
    const created = await alice.post('/persons', {
      customer_reference_id: `flaky-${Date.now()}`,
      first_name: 'Flo',
      last_name: 'Flaky',
    });
    await runtime.settle();
    const tries = receiver.at('/flaky');
    expect(tries).toHaveLength(4);
    expect(new Set(tries.map((t) => t.headers['webhook-id'])).size).toBe(1);
    const eventId = String(tries[0]?.headers['webhook-id']);
    const event = await alice.get(`/events/${eventId}`);
    expect(event.body.event.event_data.person.id).toBe(created.body.person.id);
    const flaky = event.body.event.attempts.filter((a: { url: string }) => a.url.endsWith('/flaky'));
    expect(flaky.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500, 204]);
  });

  it('gives up on a receiver that never succeeds after 7 attempts: the last is final and the delivery is dead-lettered', async () => {
    await configure(alice, '/down', ['person_closed']);
    const { person } = (
      await alice.post('/persons', {
        customer_reference_id: `down-${Date.now()}`,
        first_name: 'Dee',
        last_name: 'Down',
      })
    ).body;
    await alice.delete(`/persons/${person.id}`);
    await runtime.settle(30_000);
    const tries = receiver.at('/down');
    expect(tries).toHaveLength(7);
    const event = await alice.get(`/events/${tries[0]?.headers['webhook-id']}`);
    const attempts = event.body.event.attempts.filter((a: { url: string }) => a.url.endsWith('/down'));
    expect(attempts).toHaveLength(7);
    expect(attempts[6]).toMatchObject({ status_code: 503, final: true });
    expect(runtime.queues.deadLetterQueue('webhookDeliveries').bodies().length).toBeGreaterThanOrEqual(1);
  });

  it('redelivers an event on request (202) with the same webhook-id, and invoke sends a test event (201)', async () => {
    await configure(alice, '/replay', ['person_created', 'verify_account_updated']);
    const { person } = (
      await alice.post('/persons', {
        customer_reference_id: `replay-${Date.now()}`,
        first_name: 'Rae',
        last_name: 'Play',
      })
    ).body;
    await runtime.settle();
    const first = receiver.at('/replay').find((r) => r.body.includes(person.id));
    const redeliver = await alice.post(`/events/${first?.headers['webhook-id']}/redeliver`, {});
    expect(redeliver.status).toBe(202);
    const invoked = await alice.post('/webhooks/invoke', { event_type: 'verify_account_updated' });
    expect(invoked.status).toBe(201);
    await runtime.settle();
    const again = receiver.at('/replay').filter((r) => r.body.includes(person.id));
    expect(again.map((r) => r.headers['webhook-id'])).toEqual([
      first?.headers['webhook-id'],
      first?.headers['webhook-id'],
    ]);
    expect(verified('/replay').some((d) => d.payload.event_type === 'verify_account_updated')).toBe(true);
    expect((await bob.get(`/events/${first?.headers['webhook-id']}`)).status).toBe(404);
  });

  it('cuts a hanging receiver at 10 s without delaying a healthy one', async () => {
    await configure(alice, '/hang', ['person_verified']);
    await configure(alice, '/healthy', ['person_verified']);
    await alice.post('/persons', personBody());
    // Each wait ends as soon as what it waits for is there; its budget only says when to give up.
    await expect.poll(() => receiver.at('/healthy').length, { timeout: 30_000, interval: 100 }).toBe(1);
    await expect.poll(() => receiver.at('/hang').length, { timeout: 30_000, interval: 100 }).toBe(1);
    // The healthy endpoint had its event before the hanging one's attempt could be cut.
    const [healthy, hang] = [receiver.at('/healthy')[0], receiver.at('/hang')[0]];
    expect((healthy?.receivedAt ?? Infinity) - (hang?.receivedAt ?? 0)).toBeLessThan(DELIVERY_TIMEOUT_MS);
    const eventId = healthy?.headers['webhook-id'];
    const hungAttempt = async () => {
      const event = await alice.get(`/events/${eventId}`);
      return event.body.event.attempts.find((a: { url: string }) => a.url.endsWith('/hang'));
    };
    await expect
      .poll(hungAttempt, { timeout: 30_000, interval: 250 })
      .toMatchObject({ error: expect.stringMatching(/10000 ms/) });
  }, 90_000);
});
