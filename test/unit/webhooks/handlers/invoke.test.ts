import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as invokeWebhook } from '#functions/webhooks/handlers/invoke';
import { eventKeys } from '#shared/db/stored-events/keys';
import { ddb, FRIDAY, givenStored, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/**
 * POST /webhooks/invoke: the test event is marked as one and kept apart from real events
 * in the log, and sending one is paced with redelivery (docs/api.md#test-event).
 */
useHandlerHarness();

const invokeEvent = (body: unknown) =>
  httpEvent({
    method: 'POST',
    path: '/webhooks/invoke',
    routeKey: 'POST /webhooks/invoke',
    body,
    claims: { client_id: 'partner-a', scope: 'invoke:webhook' },
  });

const eventPuts = () =>
  ddb
    .commandCalls(PutCommand)
    .map((call) => call.args[0].input.Item)
    .filter((item) => item?.entity === 'event');

describe('POST /webhooks/invoke', () => {
  it('stores the test event marked test: true, listed apart from real events', async () => {
    const res = await invoke(invokeWebhook, invokeEvent({ event_type: 'verify_account_updated' }));

    expect(res.statusCode).toBe(201);
    const [item] = eventPuts();
    expect(item?.envelope).toMatchObject({ event_type: 'verify_account_updated', test: true });
    expect(item?.gsi1pk).toBe(eventKeys.list(TENANT, 0, true));
  });

  it('takes a step of the tenant’s redelivery pace before storing it', async () => {
    await invoke(invokeWebhook, invokeEvent({ event_type: 'person_created' }));

    const paced = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key);
    expect(paced).toEqual([eventKeys.redeliveryPace(TENANT)]);
  });

  it('answers 429 invoke_rate_exceeded with Retry-After and stores nothing once the pace is spent', async () => {
    // 10 at once then one a second: a pace 20 s ahead waits 11 s.
    givenStored({ ...eventKeys.redeliveryPace(TENANT), tat: FRIDAY.getTime() + 20_000 });

    const res = await invoke(invokeWebhook, invokeEvent({ event_type: 'person_created' }));

    expect(res.statusCode).toBe(429);
    expect(res.body).toMatchObject({ error_code: 'invoke_rate_exceeded', details: { retry_after_seconds: 11 } });
    expect(res.headers['retry-after']).toBe('11');
    expect(eventPuts()).toEqual([]);
  });
});
