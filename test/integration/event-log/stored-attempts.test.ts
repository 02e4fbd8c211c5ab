import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_SECONDS } from '#domain/webhook-delivery';
import { MAX_DELAY_SECONDS } from '#functions/webhooks/deliver';
import type { LocalRuntime } from '#lib/local/runtime';
import { QUEUE_SETTINGS } from '#lib/service/index';
import { ENTITY } from '#shared/db/entities';
import { eventKeys } from '#shared/db/stored-events/keys';
import { api, startTestRuntime } from '../harness';
import { startReceiver } from '../webhooks/receiver';

/**
 * An event's partition holds at most 100 delivery attempts (docs/api.md#event-log),
 * however many deliveries, retries and redeliveries it had: the newest are kept, every
 * delivery still goes out and every retry is still scheduled.
 *
 * The cap needs over 100 tries, and a try is the costly part (it reads the event's whole
 * partition, claims, posts, records). They are made with as few worker messages as the
 * retry schedule allows: each endpoint fails a delivery's first three tries and takes the
 * fourth (retries after 5 s, 5 min and 30 min), so ten endpoints pass the cap in three
 * rounds with 5 messages a delivery. Only the last round's one delivery uses all seven
 * tries, whose 2 h, 5 h and 10 h waits take 66 more messages (a message is delayed 15
 * minutes at most, so deliver.ts chains longer waits). Before, 18 deliveries of seven tries
 * took 1,368 messages and outran the fixed 30 s on a loaded machine; the budget now
 * follows from the messages counted here.
 */
const TENANT = 'tenant-attempts';
const ENDPOINTS = 10; // a tenant's most configurations (docs/api.md#webhook-configurations)
const TRIES_TAKEN = 4;
const FLAKY_ROUNDS = 3; // the test event and two redeliveries: 120 tries
const MAX_TRIES = RETRY_DELAYS_SECONDS.length + 1;

/**
 * Messages the delivery worker takes for one delivery of `tries` tries: one a try, one
 * more for each 15 minutes of a wait beyond the first, and, when it gives up, each receive
 * of its last message until that is dead-lettered.
 */
function messagesOf(tries: number): number {
  const hops = RETRY_DELAYS_SECONDS.slice(0, tries - 1).reduce(
    (sum, seconds) => sum + Math.ceil(seconds / MAX_DELAY_SECONDS) - 1,
    0,
  );
  return tries + hops + (tries === MAX_TRIES ? QUEUE_SETTINGS.webhookDeliveries.maxReceiveCount : 0);
}

/**
 * A round of ten deliveries took up to 130 ms a message here while other test runs loaded
 * both cores (a chained wait, a few ms); a round may take three times that before the
 * test calls it stuck.
 */
const MS_PER_MESSAGE = 400;
const FLAKY_ROUND_BUDGET_MS = ENDPOINTS * messagesOf(TRIES_TAKEN) * MS_PER_MESSAGE; // 50 messages: 20 s
const LAST_ROUND_BUDGET_MS = messagesOf(MAX_TRIES) * MS_PER_MESSAGE; // 76 messages: 30.4 s
/** The rounds' budgets, and the default test budget for the 26 requests the test sends itself. */
const TEST_BUDGET_MS = 30_000 + FLAKY_ROUNDS * FLAKY_ROUND_BUDGET_MS + LAST_ROUND_BUDGET_MS;

let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  // Each endpoint's deliveries follow one another (the test settles between rounds), so its
  // n-th request is try (n - 1) % 4 + 1 of a delivery. `/down` never answers 2xx.
  receiver = await startReceiver((path, n) => (path !== '/down' && n % TRIES_TAKEN === 0 ? 204 : 503));
  runtime = await startTestRuntime({ pipelineTimings: { queueTimeScale: 1 / 1800, queueDelayTimeScale: 1 / 100_000 } });
  client = api(runtime, await runtime.mintToken(TENANT));
  await client.post('/webhooks/secret', {});
});
afterAll(async () => {
  await runtime?.stop();
  await receiver?.close();
});

/** Every delivery-attempt item of the event's partition, as stored. */
async function storedAttempts(eventId: string): Promise<Record<string, unknown>[]> {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: runtime.dynamoEndpoint }));
  try {
    const out = await db.send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': eventKeys.event(TENANT, eventId).pk },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).filter((item) => item.entity === ENTITY.deliveryAttempt);
  } finally {
    db.destroy();
  }
}

const configuration = (path: string) => ({ url: receiver.url(path), event_types: ['person_created'], enabled: true });

describe('attempts stored per event', () => {
  it(
    'never exceed 100 however many redeliveries and retries, while every attempt is still sent',
    async () => {
      const ids: string[] = [];
      for (let n = 1; n <= ENDPOINTS; n++) {
        const configured = await client.post('/webhooks/configurations', configuration(`/${n}`));
        expect(configured.status).toBe(200);
        ids.push(configured.body.webhook_configuration.id);
      }
      expect((await client.post('/webhooks/invoke', { event_type: 'person_created' })).status).toBe(201);
      await runtime.settle(FLAKY_ROUND_BUDGET_MS);
      const eventId = String(receiver.received[0]?.headers['webhook-id']);
      for (let round = 2; round <= FLAKY_ROUNDS; round++) {
        expect((await client.post(`/events/${eventId}/redeliver`, {})).status).toBe(202);
        await runtime.settle(FLAKY_ROUND_BUDGET_MS);
      }
      // Past the cap, one endpoint goes down for good: its delivery's seven tries, the last
      // given up, must be the newest attempts kept.
      const [kept, ...others] = ids;
      for (const id of others) expect((await client.delete(`/webhooks/configurations/${id}`)).status).toBe(204);
      expect((await client.put(`/webhooks/configurations/${kept}`, configuration('/down'))).status).toBe(200);
      expect((await client.post(`/events/${eventId}/redeliver`, {})).status).toBe(202);
      await runtime.settle(LAST_ROUND_BUDGET_MS);

      const sent = receiver.received.filter((r) => r.headers['webhook-id'] === eventId);
      expect(sent).toHaveLength(FLAKY_ROUNDS * ENDPOINTS * TRIES_TAKEN + MAX_TRIES); // 127
      expect((await storedAttempts(eventId)).length).toBe(100);
      const shown = (await client.get(`/events/${eventId}`)).body.event.attempts as {
        at: string;
        url: string;
        status_code?: number;
        final?: true;
      }[];
      expect(shown).toHaveLength(100);
      // The newest are kept, oldest first: the given-up delivery's seven tries end the list.
      expect(shown.map((a) => a.at)).toEqual(shown.map((a) => a.at).sort());
      const down = receiver.url('/down');
      expect(shown.slice(-MAX_TRIES).map(({ url, status_code, final }) => ({ url, status_code, final }))).toEqual([
        ...Array.from({ length: MAX_TRIES - 1 }, () => ({ url: down, status_code: 503, final: undefined })),
        { url: down, status_code: 503, final: true },
      ]);
      expect(shown.slice(0, -MAX_TRIES).filter((a) => a.url === down || a.final)).toEqual([]);
    },
    TEST_BUDGET_MS,
  );
});
