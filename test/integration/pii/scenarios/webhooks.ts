import { expect } from 'vitest';
import { SSNS } from '../support';
import { dashed, digits, ok, refused, type Scenario } from './context';

/**
 * The webhook routes that set the stage: signing secrets, and the configurations every
 * later event is delivered to.
 */
export const WEBHOOK_SCENARIOS: Record<string, Scenario> = {
  'POST /webhooks/secret': async ({ alice, bob, state, strayWebhookSecret }) => {
    // A secret of the caller's own in the body is refused (the route takes none) and must leak nowhere.
    refused(await alice.post('/webhooks/secret', { secret: strayWebhookSecret }), 400, 'unknown_field');
    for (let rotation = 0; rotation < 2; rotation++) {
      const created = await alice.post('/webhooks/secret');
      ok(created);
      state.webhookSecrets.push(created.body.webhook_secret.secret);
    }
    ok(await bob.post('/webhooks/secret'));
  },

  'GET /webhooks/secret': async ({ alice, state }) => {
    const current = await alice.get('/webhooks/secret');
    ok(current);
    expect(current.body.webhook_secret.secret).toBe(state.webhookSecrets.at(-1));
  },

  'POST /webhooks/configurations': async ({ alice, bob, receiverUrl, state, strayWebhookSecret, tokens }) => {
    const configured = await alice.post('/webhooks/configurations', {
      url: receiverUrl('/ok'),
      event_types: ['subscribe_all'],
      enabled: true,
    });
    ok(configured);
    state.configurationId = configured.body.webhook_configuration.id;
    // A receiver that fails every other attempt: deliveries are retried, each attempt recorded.
    ok(
      await alice.post('/webhooks/configurations', {
        url: receiverUrl('/flaky'),
        event_types: ['subscribe_all'],
        enabled: true,
      }),
    );
    ok(
      await bob.post('/webhooks/configurations', {
        url: receiverUrl('/bob'),
        event_types: ['subscribe_all'],
        enabled: true,
      }),
    );
    const url = `https://partner:${strayWebhookSecret}@hooks.example.com/hook`;
    refused(
      await alice.post('/webhooks/configurations', { url, event_types: ['person_all'], enabled: true }),
      400,
      'invalid_url',
    );
    refused(
      await alice.post('/webhooks/configurations', {
        url: receiverUrl('/ok'),
        event_types: [dashed(SSNS.stray), tokens.alice],
        enabled: true,
      }),
      400,
      'invalid_event_types',
    );
    refused(
      await alice.post('/webhooks/configurations', {
        url: receiverUrl('/ok'),
        event_types: ['person_all'],
        enabled: true,
        secret: strayWebhookSecret,
      }),
      400,
      'unknown_field',
    );
  },

  'GET /webhooks/configurations': async ({ alice }) => {
    ok(await alice.get('/webhooks/configurations'));
  },

  'PUT /webhooks/configurations/{id}': async ({ alice, bob, receiverUrl, state, strayWebhookSecret }) => {
    const path = `/webhooks/configurations/${state.configurationId}`;
    const body = { url: receiverUrl('/ok'), event_types: ['subscribe_all'], enabled: true };
    ok(await alice.put(path, body));
    refused(await bob.put(path, body), 404, 'unknown_id_webhook_configuration');
    refused(await alice.put(path, { ...body, enabled: strayWebhookSecret }), 400, 'invalid_enabled');
    refused(await alice.put(`/webhooks/configurations/${digits(SSNS.stray)}`, body), 404);
  },

  'DELETE /webhooks/configurations/{id}': async ({ alice, bob, receiverUrl }) => {
    const extra = await alice.post('/webhooks/configurations', {
      url: receiverUrl('/deleted'),
      event_types: ['person_all'],
      enabled: true,
    });
    const path = `/webhooks/configurations/${extra.body.webhook_configuration.id}`;
    refused(await bob.delete(path), 404, 'unknown_id_webhook_configuration');
    ok(await alice.delete(path), 204);
    refused(await alice.delete(`/webhooks/configurations/${dashed(SSNS.stray)}`), 404);
  },
};
