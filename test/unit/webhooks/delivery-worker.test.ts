import { beforeEach, describe, expect, it } from 'vitest';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { MAX_ATTEMPTS } from '#domain/webhook-delivery';
import type { DeliveryAttempt, EventRepository } from '#shared/db/events/index';
import type { WebhookSecretRepository } from '#shared/db/webhook-secrets/index';
import type { WebhookRepository } from '#shared/db/webhooks/index';
import { setDependencies } from '#shared/dependencies';
import type { TransportResult, WebhookTransport } from '#shared/webhook-transport/webhook-transport';
import type { WebhookUrlVerdict } from '#shared/webhook-url/webhook-url-policy';
import { handler as worker } from '../../../functions/webhooks/delivery-worker';
import { FakeQueue } from '../../support/fakes';
import { TENANT, useHandlerHarness } from '../../support/handler-harness';
import { countOf, valuesOf } from '../../support/metrics';
import { sqsBatch, sqsRecord } from '../../support/records';

/**
 * The delivery worker's metrics, one attempt per message: its outcome
 * (WebhookDeliverySucceeded / WebhookDeliveryFailed), its latency when a request went out,
 * and WebhookDeliveryExhausted when the last attempt failed. (Delivery itself — signing,
 * retries, the receiver's view — is tested end to end in test/integration/webhooks.)
 */
const harness = useHandlerHarness();

const EVENT_ID = '4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a';
const CONFIGURATION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

class FakeEvents {
  readonly attempts: DeliveryAttempt[] = [];
  async get() {
    return {
      tenant: TENANT,
      envelope: {
        event_id: EVENT_ID,
        event_type: 'person_verified',
        created_at: '2026-01-16T15:00:00.000Z',
        event_data: {},
      },
    };
  }
  async recordAttempt(_tenant: string, _eventId: string, attempt: DeliveryAttempt) {
    this.attempts.push(attempt);
  }
}

/** Both webhook ports: the configuration (`webhooks`) and the signing secrets (`webhookSecrets`). */
class FakeWebhooks {
  enabled = true;
  async configuration(): Promise<Partial<WebhookConfiguration>> {
    return { id: CONFIGURATION_ID, tenant: TENANT, url: 'https://partner.example/hooks', enabled: this.enabled };
  }
  async signingSecrets() {
    return [SECRET];
  }
}

class FakeTransport implements WebhookTransport {
  answer: TransportResult = { status: 200, latencyMs: 142 };
  posts = 0;
  async post(): Promise<TransportResult> {
    this.posts++;
    return this.answer;
  }
}

let events: FakeEvents;
let webhooks: FakeWebhooks;
let transport: FakeTransport;
let verdict: WebhookUrlVerdict;
let queue: FakeQueue;
beforeEach(() => {
  events = new FakeEvents();
  webhooks = new FakeWebhooks();
  transport = new FakeTransport();
  verdict = { ok: true };
  queue = new FakeQueue();
  setDependencies({
    events: events as unknown as EventRepository,
    webhooks: webhooks as unknown as WebhookRepository,
    webhookSecrets: webhooks as unknown as WebhookSecretRepository,
    webhookTransport: transport,
    webhookUrlPolicy: { check: async () => verdict },
    queue,
  });
});

const delivery = (attempt = 1, extra: Record<string, unknown> = {}) =>
  sqsBatch(
    sqsRecord(`m-${attempt}`, {
      tenant: TENANT,
      event_id: EVENT_ID,
      configuration_id: CONFIGURATION_ID,
      attempt,
      ...extra,
    }),
  );

const counts = () => ({
  succeeded: countOf(harness.metrics, 'WebhookDeliverySucceeded'),
  failed: countOf(harness.metrics, 'WebhookDeliveryFailed'),
  exhausted: countOf(harness.metrics, 'WebhookDeliveryExhausted'),
});

describe('webhook delivery worker: metrics', () => {
  it('counts a 2xx answer as WebhookDeliverySucceeded with the attempt’s latency', async () => {
    await worker(delivery());

    expect(transport.posts).toBe(1);
    expect(counts()).toEqual({ succeeded: 1, failed: 0, exhausted: 0 });
    expect(valuesOf(harness.metrics, 'WebhookDeliveryLatency')).toEqual([142]);
  });

  it('counts one WebhookDeliveryFailed per failed attempt, with its latency, and no end while retries remain', async () => {
    transport.answer = { status: 500, latencyMs: 87 };

    await worker(delivery(1));
    transport.answer = { error: 'timed out after 10000 ms', latencyMs: 10_000 };
    await worker(delivery(2));

    expect(queue.sent).toHaveLength(2);
    expect(counts()).toEqual({ succeeded: 0, failed: 2, exhausted: 0 });
    expect(valuesOf(harness.metrics, 'WebhookDeliveryLatency')).toEqual([87, 10_000]);
  });

  it('counts an attempt refused before sending as failed, with no latency to measure', async () => {
    verdict = { ok: false, reason: 'the host resolves to a private address' };

    await worker(delivery());

    expect(transport.posts).toBe(0);
    expect(counts()).toEqual({ succeeded: 0, failed: 1, exhausted: 0 });
    expect(valuesOf(harness.metrics, 'WebhookDeliveryLatency')).toEqual([]);
  });

  it('counts WebhookDeliveryExhausted once when the last attempt fails, not again as the message is dead-lettered', async () => {
    transport.answer = { status: 503, latencyMs: 30 };

    await worker(delivery(MAX_ATTEMPTS));
    expect(events.attempts[0].final).toBe(true);
    expect(queue.sent[0].message.body).toMatchObject({ exhausted: true });
    const deadLettered = await worker(delivery(MAX_ATTEMPTS, { exhausted: true }));

    expect(deadLettered.batchItemFailures).toEqual([{ itemIdentifier: `m-${MAX_ATTEMPTS}` }]);
    expect(counts()).toEqual({ succeeded: 0, failed: 1, exhausted: 1 });
  });

  it('counts nothing for a delivery dropped because its configuration was disabled', async () => {
    webhooks.enabled = false;

    await worker(delivery());

    expect(transport.posts).toBe(0);
    expect(harness.metrics).toEqual([]);
  });
});
