import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultPlanInput } from '#lib/local/faults/fault-plan';
import type { LocalRuntime, LocalRuntimeOptions } from '#lib/local/runtime';
import { messageQueue } from '#shared/queue/index';
import { captureLogs } from '#test/support/logs';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';
import { accountBody, freshAccountNumber } from '../verify-accounts/support';
import { startReceiver } from '../webhooks/receiver';

/**
 * Fault injection through the local runtime (`startTestRuntime({ faults })`,
 * docs/local.md#fault-injection): each injector acts on the handlers' calls, counts what it
 * injected, and a faulted call never reaches its dependency. One runtime per plan.
 */
const logs = captureLogs();

function useFaultyRuntime(faults: FaultPlanInput, options: Partial<LocalRuntimeOptions> = {}) {
  const env = {} as { runtime: LocalRuntime; alice: ReturnType<typeof api> };
  beforeAll(async () => {
    env.runtime = await startTestRuntime({ faults: { seed: 29, ...faults }, ...options });
    env.alice = api(env.runtime, await env.runtime.mintToken('tenant-alice'));
  });
  afterAll(() => env.runtime?.stop());
  return env;
}

describe('a plan that gives no dependency a rate', () => {
  const env = useFaultyRuntime({}, { consumers: [], screeningLists: false });

  it('injects nothing and says so', async () => {
    await env.alice.get('/verify/accounts');
    expect(env.runtime.faults?.summary()).toBe('faults injected: none, every rate is 0');
    expect(env.runtime.faults?.counts().dynamodb).toEqual({ calls: 0, injected: {} });
  });
});

describe('DynamoDB throttling every request', () => {
  // The screening lists load at start through the handlers' client: start-up meets no fault.
  // No pipeline: its functions, throttled too, would hold the stop up with the SDK's backoff.
  const env = useFaultyRuntime({ dynamodb: { rate: 1, kinds: ['throttle'] } }, { consumers: [] });

  /** Items in the table, read past the proxy, as the runtime's own clients read it. */
  async function itemCount(): Promise<number | undefined> {
    const direct = new DynamoDBClient({ endpoint: env.runtime.dynamoEndpoint });
    try {
      return (await direct.send(new ScanCommand({ TableName: env.runtime.tableName, Select: 'COUNT' }))).Count;
    } finally {
      direct.destroy();
    }
  }

  it('fails a create whose every write is throttled, and nothing is written; the runtime’s own clients are spared', async () => {
    const before = await itemCount();
    const answer = await env.alice.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
    // The SDK's retries are spent: the contract's 503 with Retry-After (docs/api.md#retrying), never a 500.
    expect(answer.status).toBe(503);
    expect(answer.body.error_code).toBe('service_unavailable');
    expect(answer.headers['retry-after']).toBe('1');
    expect(env.runtime.faults?.counts().dynamodb.injected.throttle).toBeGreaterThanOrEqual(1);
    expect(await itemCount()).toBe(before);
  });
});

describe('the queues throttling every send', () => {
  const env = useFaultyRuntime({ queues: { rate: 1, kinds: ['throttle'] } }, { screeningLists: false });

  it('throws SQS’s RequestThrottled from the port, and the queue gets nothing', async () => {
    const sent = messageQueue().send('screening', [{ id: 'm1', body: { shard: 'x' } }]);
    await expect(sent).rejects.toMatchObject({
      name: 'RequestThrottled',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    expect(env.runtime.queues.queue('screening').contents()).toEqual([]);
  });

  it('leaves a new account pending: the stream router cannot queue its verification, and gives the record up after its retries', async () => {
    const created = await env.alice.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
    expect(created.status).toBe(200);
    await env.runtime.settle(20_000);
    expect(env.runtime.queues.queue('verification').contents()).toEqual([]);
    expect(env.runtime.streamFailures.length).toBeGreaterThanOrEqual(1);
    expect((await env.alice.get(`/verify/accounts/${created.body.account.id}`)).body.account.verification_status).toBe(
      'pending',
    );
    expect(env.runtime.faults?.counts().queues.injected.throttle).toBeGreaterThanOrEqual(2);
  });
});

describe('the identity vendor and the bank unavailable on every call', () => {
  const env = useFaultyRuntime({ identity: { rate: 1, kinds: ['5xx'] }, bank: { rate: 1, kinds: ['5xx'] } });

  it('leaves an account pending: each of its 5 receives meets the bank’s 503, then it is dead-lettered', async () => {
    const created = await env.alice.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
    expect(created.status).toBe(200);
    await env.runtime.settle(20_000);
    expect(env.runtime.faults?.counts().bank).toEqual({ calls: 5, injected: { '5xx': 5 } });
    // The worker logs the error as the SDK would have shaped it.
    expect(logs.find((line) => line.function_name === 'VerificationWorker' && line.error)).toMatchObject({
      error: { name: 'ServiceUnavailable', $fault: 'server', $metadata: { httpStatusCode: 503 } },
    });
    expect(env.runtime.queues.deadLetterQueue('verification').bodies()).toHaveLength(1);
    expect((await env.alice.get(`/verify/accounts/${created.body.account.id}`)).body.account.verification_status).toBe(
      'pending',
    );
  });

  it('leaves a person created, never verified: each of its 5 receives meets the vendor’s 503', async () => {
    const created = await env.alice.post('/persons', personBody());
    expect(created.status).toBe(200);
    await env.runtime.settle(20_000);
    expect(env.runtime.faults?.counts().identity).toEqual({ calls: 5, injected: { '5xx': 5 } });
    expect(env.runtime.queues.deadLetterQueue('identification').bodies()).toHaveLength(1);
    expect((await env.alice.get(`/persons/${created.body.person.id}`)).body.person.status).toBe('created');
  });
});

describe('webhook receivers answering 503 to every attempt, a slow vendor and bank', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver(() => 204);
  });
  afterAll(() => receiver?.close());
  const env = useFaultyRuntime(
    {
      webhooks: { rate: 1, kinds: ['5xx'] },
      identity: { rate: 1, kinds: ['slow'], latencyMs: 150 },
      bank: { rate: 1, kinds: ['slow'], latencyMs: 150 },
    },
    { pipelineTimings: { queueTimeScale: 1 / 1800, queueDelayTimeScale: 1 / 100_000 } },
  );

  it('verifies a person all the same when the vendor is slow, and settles an account when the bank is', async () => {
    const person = await env.alice.post('/persons', personBody());
    const account = await env.alice.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
    await env.runtime.settle(20_000);
    expect((await env.alice.get(`/persons/${person.body.person.id}`)).body.person.status).toBe('verified');
    expect((await env.alice.get(`/verify/accounts/${account.body.account.id}`)).body.account.verification_status).toBe(
      'valid',
    );
    const counts = env.runtime.faults?.counts();
    expect(counts?.identity.injected).toEqual({ slow: counts?.identity.calls });
    expect(counts?.bank.injected).toEqual({ slow: counts?.bank.calls });
  });

  it('records a 503 for each of the 7 attempts of a delivery, while the receiver gets nothing', async () => {
    await env.alice.post('/webhooks/secret', {});
    const configured = await env.alice.post('/webhooks/configurations', {
      url: receiver.url('/hooks'),
      event_types: ['person_created'],
      enabled: true,
    });
    expect(configured.status).toBe(200);
    const before = env.runtime.faults?.counts().webhooks.injected['5xx'] ?? 0;
    const person = await env.alice.post('/persons', personBody());
    await env.runtime.settle(30_000);

    expect(receiver.received).toEqual([]);
    const listed = await env.alice.get('/events?event_type=person_created&size=100');
    const created = listed.body.events.find(
      (event: { event_data: { person: { id: string } } }) => event.event_data.person.id === person.body.person.id,
    );
    const event = await env.alice.get(`/events/${created.event_id}`);
    const attempts = event.body.event.attempts as { status_code?: number; final?: boolean }[];
    expect(attempts.map((attempt) => attempt.status_code)).toEqual(new Array(7).fill(503));
    expect(attempts.at(-1)?.final).toBe(true);
    expect((env.runtime.faults?.counts().webhooks.injected['5xx'] ?? 0) - before).toBe(7);
  });
});
