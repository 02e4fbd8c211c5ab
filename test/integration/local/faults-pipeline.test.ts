import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_TARGETS } from '#lib/local/faults/fault-plan';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '#test/integration/harness';
import {
  capturingLog,
  createAccount,
  createPerson,
  deliveriesPerEvent,
  functionFailures,
  inLanes,
  parked,
  SETTLE_MS_PER_RECORD,
  subscribeToEverything,
  unsettled,
} from '#test/integration/local/support';
import { startReceiver } from '#test/integration/webhooks/receiver';
import { everyEventId } from '#test/support/pages';
import { retryingClient } from '#test/support/retrying-client';

/**
 * docs/local.md#fault-injection: the whole pipeline with 10 % of the calls to every
 * dependency failing or slow (DynamoDB on the wire, the queues, the identity vendor, the
 * bank, the webhook receivers), partners' clients retrying as docs/api.md#retrying says.
 * A fault costs time, never work: every accepted record settles, every event reaches the
 * receiver exactly once (it answers 2xx to all that reach it), nothing is parked in a
 * dead-letter queue or the stream's on-failure destination, and no request meets an error
 * (the service's own 500, or a function that throws). A function that outlives its 10 s on
 * a loaded machine answers API Gateway's 500, which the partner retries (./support.ts).
 */
const LANES = 4;
const ACCOUNTS = 40;
const PERSONS = 40;
const TENANT = 'tenant-faulty';
const RATE = 0.1;

const captured = capturingLog();
let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(() => 204);
  const everyDependency = Object.fromEntries(FAULT_TARGETS.map((target) => [target, { rate: RATE, latencyMs: 200 }]));
  runtime = await startTestRuntime({ faults: { seed: 29, ...everyDependency }, log: captured.log });
});
afterAll(async () => {
  await runtime?.stop();
  await receiver?.close();
});

describe(`the pipeline with ${RATE * 100} % faults on every dependency`, () => {
  it('settles every accepted record, delivers every event once, parks nothing and meets no error', async () => {
    const client = retryingClient(api(runtime, await runtime.mintToken(TENANT)));
    await subscribeToEverything(client, receiver.url('/hooks'));
    const accounts = await inLanes(LANES, ACCOUNTS, (n) => createAccount(client, n));
    const persons = await inLanes(LANES, PERSONS, (n) => createPerson(client, n));

    await runtime.settle((ACCOUNTS + PERSONS) * SETTLE_MS_PER_RECORD);

    // Faults were injected into every dependency, and no request met an error.
    const counts = runtime.faults?.counts();
    for (const target of FAULT_TARGETS) {
      const injected = Object.values(counts?.[target].injected ?? {}).reduce((sum, n) => sum + n, 0);
      expect({ target, injected: injected > 0 }).toEqual({ target, injected: true });
    }
    expect(client.answers.filter((answer) => answer.status === 500 && answer.errorCode !== undefined)).toEqual([]);
    expect(functionFailures(captured.lines)).toEqual([]);
    for (const answer of client.answers.filter((seen) => seen.status === 503)) {
      expect(answer).toMatchObject({ errorCode: 'service_unavailable', retryAfter: '1' });
    }

    // Every accepted record settled, and nothing is parked that the retries should have absorbed.
    const reader = retryingClient(api(runtime, await runtime.mintToken(TENANT)));
    expect(await unsettled(reader, { accounts, persons })).toEqual({ accounts: [], persons: [] });
    expect(parked(runtime.queues.deadLetters())).toEqual({});
    expect(runtime.streamFailures.map((failure) => `${failure.consumer}: ${failure.error}`)).toEqual([]);

    // Every stored event reached the receiver, each exactly once.
    const stored = await everyEventId(reader);
    expect(stored.length).toBeGreaterThanOrEqual(ACCOUNTS + PERSONS);
    const deliveries = deliveriesPerEvent(receiver.received);
    expect(stored.filter((id) => deliveries.get(id) !== 1).map((id) => `${id}: ${deliveries.get(id) ?? 0}`)).toEqual(
      [],
    );
  }, 300_000);
});
