import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_TARGETS } from '#lib/local/faults/fault-plan';
import type { LocalRuntime } from '#lib/local/runtime';
import { QUEUES, type QueueId } from '#shared/queue/message-queue';
import { api, startTestRuntime } from '#test/integration/harness';
import { letters, personBody } from '#test/integration/persons/support';
import { startReceiver } from '#test/integration/webhooks/receiver';
import { everyEventId } from '#test/support/pages';
import { retryingClient } from '#test/support/retrying-client';

/**
 * docs/local.md#fault-injection: the whole pipeline with 5 % of the calls to every
 * dependency failing or slow (DynamoDB on the wire, the queues, the identity vendor, the
 * bank, the webhook receivers), partners' clients retrying as docs/api.md#retrying says.
 * A fault costs time, never work: every accepted record settles, every event reaches the
 * receiver exactly once (it answers 2xx to all that reach it), nothing is parked in a
 * dead-letter queue or the stream's on-failure destination, and no request answers 500.
 */
const LANES = 4;
const ACCOUNTS = 40;
const PERSONS = 40;
const TENANT = 'tenant-faulty';
const RATE = 0.1;

let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(() => 204);
  const everyDependency = Object.fromEntries(FAULT_TARGETS.map((target) => [target, { rate: RATE, latencyMs: 200 }]));
  runtime = await startTestRuntime({ faults: { seed: 29, ...everyDependency } });
});
afterAll(async () => {
  await runtime?.stop();
  await receiver?.close();
});

async function inLanes<T>(count: number, task: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    for (let n = next++; n < count; n = next++) results[n] = await task(n);
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return results;
}

describe(`the pipeline with ${RATE * 100} % faults on every dependency`, () => {
  it('settles every accepted record, delivers every event once, parks nothing and answers no 500', async () => {
    const client = retryingClient(api(runtime, await runtime.mintToken(TENANT)));
    expect((await client.post('/webhooks/secret', {})).status).toBe(200);
    const configured = await client.post('/webhooks/configurations', {
      url: receiver.url('/hooks'),
      event_types: ['subscribe_all'],
      enabled: true,
    });
    expect(configured.status).toBe(200);

    const accounts = await inLanes(ACCOUNTS, async (n) => {
      const res = await client.post('/verify/accounts', {
        account_number: String(7_000_000_000 + n),
        routing_number: '021000021',
        account_holder_name: 'Jane Doe',
      });
      expect(res.status).toBe(200);
      return res.body.account.id as string;
    });
    const persons = await inLanes(PERSONS, async (n) => {
      const res = await client.post('/persons', personBody({ first_name: `Jane${letters(n)}` }));
      expect(res.status).toBe(200);
      return res.body.person.id as string;
    });

    await runtime.settle(120_000);

    // Faults were injected into every dependency, and the partners' clients never saw a 500.
    const counts = runtime.faults?.counts();
    for (const target of FAULT_TARGETS) {
      const injected = Object.values(counts?.[target].injected ?? {}).reduce((sum, n) => sum + n, 0);
      expect({ target, injected: injected > 0 }).toEqual({ target, injected: true });
    }
    expect(client.answers.filter((answer) => answer.status === 500)).toEqual([]);
    for (const answer of client.answers.filter((seen) => seen.status === 503)) {
      expect(answer).toMatchObject({ errorCode: 'service_unavailable', retryAfter: '1' });
    }

    // Every accepted record settled.
    const reader = retryingClient(api(runtime, await runtime.mintToken(TENANT)));
    const pending: string[] = [];
    for (const id of accounts) {
      const res = await reader.get(`/verify/accounts/${id}`);
      if (res.body.account.verification_status === 'pending') pending.push(`account ${id}`);
    }
    for (const id of persons) {
      const res = await reader.get(`/persons/${id}`);
      if (res.body.person.status === 'created') pending.push(`person ${id}`);
    }
    expect(pending).toEqual([]);

    // Nothing parked that the retries should have absorbed.
    const parked = (Object.keys(QUEUES) as QueueId[]).flatMap((id) => {
      const size = runtime.queues.deadLetterQueue(id).size;
      return size > 0 ? [`${id}: ${size}`] : [];
    });
    expect(parked).toEqual([]);
    expect(runtime.streamFailures.map((failure) => `${failure.consumer}: ${failure.error}`)).toEqual([]);

    // Every stored event reached the receiver, each exactly once.
    const stored = await everyEventId(reader);
    expect(stored.length).toBeGreaterThanOrEqual(ACCOUNTS + PERSONS);
    const received = new Map<string, number>();
    for (const hook of receiver.received) {
      const id = String(hook.headers['webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
    }
    expect(stored.filter((id) => received.get(id) !== 1).map((id) => `${id}: ${received.get(id) ?? 0}`)).toEqual([]);
  }, 300_000);
});
