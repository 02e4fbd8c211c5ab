import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { webhookHeaders } from '#domain/webhook-signing';
import { handler as deliveryWorker } from '#functions/webhooks/handlers/delivery-worker';
import { ENTITY } from '#shared/db/entities';
import { eventKeys } from '#shared/db/stored-events/keys';
import { configurationItem } from '#shared/db/webhook-configurations/item';
import { webhookConfigurationKeys } from '#shared/db/webhook-configurations/keys';
import { webhookSecretKeys } from '#shared/db/webhook-secrets/keys';
import { setDependencies } from '#shared/dependencies';
import type { TransportResult, WebhookTransport } from '#shared/webhook-transport/webhook-transport';
import { approvingUrlPolicy, FakeQueue } from '#test/support/fakes';
import { ddb, functionUnderTest, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { sqsBatch, sqsRecord } from '#test/support/records';

/**
 * The table calls a batch of deliveries sends, on the real repositories: what every
 * delivery needs of its own (its event with the attempts, the attempt it records) once per
 * delivery, what the tenant's deliveries share (its configurations, its signing secrets)
 * once per tenant per batch, and again in the next batch, so a configuration disabled or a
 * secret rotated meanwhile takes effect there.
 */
useHandlerHarness();
const worker = functionUnderTest('WebhookDeliveryWorker', deliveryWorker);

const CONFIGURATION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const OTHER_CONFIGURATION_ID = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const eventId = (n: number) => `4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b${String(n).padStart(2, '0')}`;

class FakeTransport implements WebhookTransport {
  readonly posted: { url: string; headers: Record<string, string>; body: string }[] = [];
  async post(target: { url: URL }, headers: Record<string, string>, body: string): Promise<TransportResult> {
    this.posted.push({ url: target.url.href, headers, body });
    return { status: 204, latencyMs: 3 };
  }
}

let transport: FakeTransport;
let enabled: boolean;
let secretCiphertext: string;
beforeEach(() => {
  transport = new FakeTransport();
  enabled = true;
  secretCiphertext = 'ciphertext-1';
  setDependencies({
    cipher: {
      encrypt: async () => 'unused',
      decrypt: async (ciphertext) => plaintextOf(ciphertext),
    },
    webhookTransport: transport,
    webhookUrlPolicy: approvingUrlPolicy,
    queue: new FakeQueue(),
  });
  ddb.on(QueryCommand).callsFake(({ ExpressionAttributeValues }) => {
    const pk = String(ExpressionAttributeValues[':pk']);
    if (pk === webhookConfigurationKeys.configurations(TENANT))
      return { Items: [configuration(CONFIGURATION_ID), configuration(OTHER_CONFIGURATION_ID)] };
    const event = pk.slice(`T#${TENANT}#EVT#`.length);
    const envelope = {
      event_id: event,
      event_type: 'person_verified',
      created_at: '2026-01-16T15:00:00.000Z',
      event_data: {},
    };
    return {
      Items: [{ ...eventKeys.event(TENANT, event), entity: ENTITY.event, tenant: TENANT, id: event, envelope }],
    };
  });
  ddb.on(GetCommand, { Key: webhookConfigurationKeys.configuration(TENANT, CONFIGURATION_ID) }).callsFake(() => ({
    Item: configuration(CONFIGURATION_ID),
  }));
  ddb.on(GetCommand, { Key: webhookConfigurationKeys.configuration(TENANT, OTHER_CONFIGURATION_ID) }).callsFake(() => ({
    Item: configuration(OTHER_CONFIGURATION_ID),
  }));
  ddb.on(GetCommand, { Key: webhookSecretKeys.secret(TENANT) }).callsFake(() => ({
    Item: {
      ...webhookSecretKeys.secret(TENANT),
      entity: ENTITY.webhookSecret,
      tenant: TENANT,
      current_secret: secretCiphertext,
      created_at: '2026-01-01T00:00:00.000Z',
      version: 1,
    },
  }));
});

const plaintextOf = (ciphertext: string) => `whsec_${Buffer.from(ciphertext.padEnd(32, '.')).toString('base64')}`;

const configuration = (id: string) =>
  configurationItem({
    id,
    tenant: TENANT,
    url: `https://partner.example/hooks/${id}`,
    event_types: ['subscribe_all'],
    enabled,
    data_version: 'v2022-09-21',
    created_at: '2026-01-01T00:00:00.000Z',
    created_by: 'c',
    updated_at: '2026-01-01T00:00:00.000Z',
    updated_by: 'c',
    version: 1,
  });

/** `events` deliveries of one tenant, to each of `configurations`, in one batch. */
const deliveries = (events: number, configurations = [CONFIGURATION_ID], first = 0) =>
  sqsBatch(
    ...Array.from({ length: events }, (_, n) => first + n).flatMap((n) =>
      configurations.map((id) =>
        sqsRecord(`m-${n}-${id}`, { tenant: TENANT, event_id: eventId(n), configuration_id: id, attempt: 1 }),
      ),
    ),
  );

const reads = () => {
  const keyOf = (input: { Key?: Record<string, unknown>; ExpressionAttributeValues?: Record<string, unknown> }) =>
    String(input.Key?.pk ?? input.ExpressionAttributeValues?.[':pk']);
  const calls = [...ddb.commandCalls(GetCommand), ...ddb.commandCalls(QueryCommand)].map((call) =>
    keyOf(call.args[0].input),
  );
  return {
    events: calls.filter((pk) => pk.startsWith(`T#${TENANT}#EVT#`)).length,
    configurations: calls.filter((pk) => pk === webhookConfigurationKeys.configurations(TENANT)).length,
    secrets: calls.filter((pk) => pk === webhookSecretKeys.secret(TENANT).pk).length,
  };
};

describe('webhook delivery worker: table calls per batch', () => {
  it('reads a tenant’s configurations and signing secrets once per batch, each event and its attempt once per delivery', async () => {
    const result = await worker(deliveries(8, [CONFIGURATION_ID, OTHER_CONFIGURATION_ID]));

    expect(result.batchItemFailures).toEqual([]);
    expect(transport.posted).toHaveLength(16);
    expect(reads()).toEqual({ events: 16, configurations: 1, secrets: 1 });
    // Per delivery, its claim (one copy of a message sends) and its attempt's record.
    const puts = ddb.commandCalls(PutCommand).map((call) => String(call.args[0].input.Item?.entity));
    expect(puts.filter((entity) => entity === ENTITY.deliveryClaim)).toHaveLength(16);
    expect(puts.filter((entity) => entity === ENTITY.deliveryAttempt)).toHaveLength(16);
    expect(new Set(transport.posted.map((post) => post.url)).size).toBe(2);
  });

  it('reads them again in the next batch: a configuration disabled meanwhile sends nothing there', async () => {
    await worker(deliveries(3));
    enabled = false;
    await worker(deliveries(3, [CONFIGURATION_ID], 3));

    expect(transport.posted).toHaveLength(3);
    expect(reads()).toEqual({ events: 6, configurations: 2, secrets: 1 });
  });

  it('signs the next batch with a secret rotated meanwhile', async () => {
    await worker(deliveries(2));
    secretCiphertext = 'ciphertext-2';
    await worker(deliveries(2, [CONFIGURATION_ID], 2));

    expect(reads().secrets).toBe(2);

    const signedWith = (ciphertext: string) => (post: FakeTransport['posted'][number]) =>
      webhookHeaders(
        [plaintextOf(ciphertext)],
        post.headers['webhook-id'] ?? '',
        Number(post.headers['webhook-timestamp']),
        post.body,
      )['webhook-signature'];
    expect(transport.posted.map((post) => post.headers['webhook-signature'])).toEqual([
      ...transport.posted.slice(0, 2).map(signedWith('ciphertext-1')),
      ...transport.posted.slice(2).map(signedWith('ciphertext-2')),
    ]);
  });
});
