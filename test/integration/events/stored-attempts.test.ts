import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { ENTITY } from '#shared/db/entities';
import { eventKeys } from '#shared/db/events/keys';
import { api, startTestRuntime } from '../harness';
import { startReceiver } from '../webhooks/receiver';

/**
 * An event's partition holds at most 100 delivery attempts (docs/api.md#event-log),
 * however many deliveries, retries and redeliveries it had: the newest are kept, every
 * delivery still goes out and every retry is still scheduled.
 */
const TENANT = 'tenant-attempts';
let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  receiver = await startReceiver(() => 503);
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

describe('attempts stored per event', () => {
  it('never exceed 100 however many redeliveries and retries, while every attempt is still sent', async () => {
    for (const path of ['/a', '/b', '/c']) {
      const configured = await client.post('/webhooks/configurations', {
        url: receiver.url(path),
        event_types: ['person_created'],
        enabled: true,
      });
      expect(configured.status).toBe(200);
    }
    expect((await client.post('/webhooks/invoke', { event_type: 'person_created' })).status).toBe(201);
    await runtime.settle(30_000);
    const eventId = String(receiver.received[0]?.headers['webhook-id']);
    // 3 configurations × 7 attempts per delivery, first delivery and 5 redeliveries: 126 attempts.
    for (let i = 0; i < 5; i++) {
      expect((await client.post(`/events/${eventId}/redeliver`, {})).status).toBe(202);
      await runtime.settle(30_000);
    }

    expect(receiver.received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(126);
    expect((await storedAttempts(eventId)).length).toBe(100);
    const shown = (await client.get(`/events/${eventId}`)).body.event.attempts as { at: string; final?: true }[];
    expect(shown).toHaveLength(100);
    // The newest are kept, oldest first: the last redelivery's three final attempts end the list.
    expect(shown.map((a) => a.at)).toEqual(shown.map((a) => a.at).sort());
    expect(shown.slice(-3).every((a) => a.final === true)).toBe(true);
  });
});
