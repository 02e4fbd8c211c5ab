import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENTITY } from '#shared/db/entities';
import { losingTheAnswerOf } from '#test/support/lost-answer';
import { stopClock } from '#test/support/stopped-clock';
import { configurationBody, useWebhooksRuntime } from './support';

/**
 * A configuration's create whose write landed but whose answer was lost answers 5xx, and the
 * partner retries with the same Idempotency-Key (docs/api.md#retrying). A second
 * configuration would deliver every event to the partner twice: the retry answers the one
 * the first attempt made.
 */
const env = useWebhooksRuntime();

const createLosingTheAnswer = (body: Record<string, unknown>, headers: Record<string, string>) =>
  losingTheAnswerOf(ENTITY.webhookConfiguration, () => env.alice.post('/webhooks/configurations', body, { headers }));

const configurationIds = async () =>
  (await env.alice.get('/webhooks/configurations')).body.webhook_configurations.map((c: { id: string }) => c.id);

describe("a webhook configuration's create whose answer was lost", () => {
  it('answers the configuration the first attempt made to the retry with the same Idempotency-Key, and makes no second', async () => {
    const body = configurationBody({ url: 'https://retried.example.com/orum' });
    const headers = { 'Idempotency-Key': randomUUID() };
    const before = await configurationIds();
    expect((await createLosingTheAnswer(body, headers)).status).toBeGreaterThanOrEqual(500);

    const retry = await env.alice.post('/webhooks/configurations', body, { headers });
    expect(retry.status).toBe(200);
    expect(retry.body.webhook_configuration.url).toBe('https://retried.example.com/orum');
    expect(await configurationIds()).toEqual([retry.body.webhook_configuration.id, ...before]);
  });

  it('is not taken by another request sent with the same key: that answers 422 idempotency_key_reused', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    expect((await createLosingTheAnswer(configurationBody(), headers)).status).toBeGreaterThanOrEqual(500);

    const other = await env.alice.post('/webhooks/configurations', configurationBody({ enabled: false }), { headers });
    expect(other.status).toBe(422);
    expect(other.body.error_code).toBe('idempotency_key_reused');
  });

  it('is a new request once the key is 24 hours old, as a key then is: it makes a new configuration', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const clock = stopClock();
    try {
      const first = await env.alice.post('/webhooks/configurations', configurationBody(), { headers });
      expect(first.status).toBe(200);
      clock.advance(25 * 60 * 60 * 1000);

      const again = await env.alice.post('/webhooks/configurations', configurationBody(), { headers });
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.webhook_configuration.id).not.toBe(first.body.webhook_configuration.id);
    } finally {
      clock.restart();
    }
  });

  it("answers the retry even when the first attempt took the tenant's tenth and last place", async () => {
    for (let i = 0; i < 9; i++) {
      expect((await env.bob.post('/webhooks/configurations', configurationBody())).status).toBe(200);
    }
    const headers = { 'Idempotency-Key': randomUUID() };
    const tenth = await losingTheAnswerOf(ENTITY.webhookConfiguration, () =>
      env.bob.post('/webhooks/configurations', configurationBody(), { headers }),
    );
    expect(tenth.status).toBeGreaterThanOrEqual(500);

    const retry = await env.bob.post('/webhooks/configurations', configurationBody(), { headers });
    expect(retry.status).toBe(200);
    const listed = (await env.bob.get('/webhooks/configurations')).body.webhook_configurations;
    expect(listed).toHaveLength(10);
    expect(listed[0].id).toBe(retry.body.webhook_configuration.id);
  });
});
