import { ThrottlingException } from '@aws-sdk/client-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { MAX_ATTEMPTS } from '#domain/webhook-delivery';
import type { VettedUrl } from '#domain/webhook-url';
import { handler as deliveryWorker } from '#functions/webhooks/handlers/delivery-worker';
import type { DeliveryAttempt, StoredEventRepository } from '#shared/db/stored-events/index';
import type { WebhookConfigurationRepository } from '#shared/db/webhook-configurations/index';
import type { WebhookSecretRepository } from '#shared/db/webhook-secrets/index';
import { setDependencies } from '#shared/dependencies';
import type { TransportResult, WebhookTransport } from '#shared/webhook-transport/webhook-transport';
import { DnsWebhookUrlPolicy, type WebhookUrlVerdict } from '#shared/webhook-url/webhook-url-policy';
import { FakeQueue } from '#test/support/fakes';
import { functionUnderTest, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { lambdaContext } from '#test/support/http-events';
import { countOf, valuesOf } from '#test/support/metrics';
import { sqsBatch, sqsRecord } from '#test/support/records';

/**
 * The delivery worker: it drops an attempt it has already recorded (a message handled
 * twice, a replayed fan-out) without losing the delivery's retries; and its metrics, one
 * attempt per message: its outcome
 * (WebhookDeliverySucceeded / WebhookDeliveryFailed), its latency when a request went out,
 * and WebhookDeliveryExhausted when the last attempt failed. (Delivery itself — signing,
 * retries, the receiver's view — is tested end to end in test/integration/webhooks.)
 */
const harness = useHandlerHarness();
const worker = functionUnderTest('WebhookDeliveryWorker', deliveryWorker);

const EVENT_ID = '4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a';
const CONFIGURATION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** The event log of one event: the attempts it records are read back, as the Query of its partition does. */
class FakeEvents {
  readonly attempts: DeliveryAttempt[] = [];
  async withAttempts() {
    const envelope = {
      event_id: EVENT_ID,
      event_type: 'person_verified',
      created_at: '2026-01-16T15:00:00.000Z',
      event_data: {},
    };
    return { stored: { tenant: TENANT, envelope }, attempts: [...this.attempts] };
  }
  /** Claims on attempts, by attempt, as the claim items hold them: the holder and its lease. */
  readonly claims = new Map<string, { holder: string; leaseUntil: number }>();
  async claimAttempt(
    _tenant: string,
    _eventId: string,
    of: { configuration_id: string; attempt: number; redelivery?: string },
    holder: string,
    now: Date,
    leaseUntil: Date,
  ) {
    const key = `${of.configuration_id}#${of.attempt}#${of.redelivery ?? '-'}`;
    const held = this.claims.get(key);
    if (held && held.holder !== holder && held.leaseUntil > now.getTime()) return false;
    this.claims.set(key, { holder, leaseUntil: leaseUntil.getTime() });
    return true;
  }
  /** Writes of an attempt that fail first, as a throttled table answers once the SDK's retries are spent. */
  failRecords = 0;
  async recordAttempt(_tenant: string, _eventId: string, attempt: DeliveryAttempt) {
    if (this.failRecords > 0) {
      this.failRecords--;
      throw new ThrottlingException({ message: 'rate exceeded', $metadata: {} });
    }
    this.attempts.push(attempt);
    return true;
  }
}

/** Both webhook ports: the configurations (`webhookConfigurations`) and the signing secrets (`webhookSecrets`). */
class FakeWebhooks {
  enabled = true;
  url = 'https://partner.example/hooks';
  event_types = ['subscribe_all'];
  /** The scopes it was saved with; none: saved before scopes were stored. */
  scopes?: string[] = ['read:persons', 'read:verify-accounts', 'invoke:webhook'];
  async configurations(): Promise<Partial<WebhookConfiguration>[]> {
    const { url, enabled, event_types, scopes } = this;
    return [{ id: CONFIGURATION_ID, tenant: TENANT, url, enabled, event_types, scopes }];
  }
  async signingSecretsOf() {
    return { at: async () => [SECRET] };
  }
}

class FakeTransport implements WebhookTransport {
  answer: TransportResult = { status: 200, latencyMs: 142 };
  readonly targets: VettedUrl[] = [];
  get posts() {
    return this.targets.length;
  }
  async post(target: VettedUrl): Promise<TransportResult> {
    this.targets.push(target);
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
  verdict = { ok: true, url: new URL(webhooks.url), addresses: ['93.184.215.14'] };
  queue = new FakeQueue();
  setDependencies({
    storedEvents: events as unknown as StoredEventRepository,
    webhookConfigurations: webhooks as unknown as WebhookConfigurationRepository,
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

describe('webhook delivery worker: the configuration must still receive the kind', () => {
  it('sends nothing, and queues no retry, to a configuration whose saved scopes no longer read the event’s kind', async () => {
    webhooks.scopes = ['read:verify-accounts'];

    await worker(delivery(2));

    expect(transport.posts).toBe(0);
    expect(queue.sent).toEqual([]);
    expect(harness.metrics).toEqual([]);
  });

  it('sends nothing to a configuration replaced meanwhile to kinds without the event’s', async () => {
    webhooks.event_types = ['verify_account_updated'];

    await worker(delivery(2));

    expect(transport.posts).toBe(0);
  });

  it('sends to a configuration saved before scopes were stored that names the kind (grandfathered)', async () => {
    webhooks.scopes = undefined;

    await worker(delivery());

    expect(transport.posts).toBe(1);
  });
});

describe('webhook delivery worker: an attempt already recorded is not sent again', () => {
  const failedAttempt = (attempt: number, over: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
    at: `2026-01-16T15:0${attempt}:00.000Z`,
    url: 'https://partner.example/hooks',
    configuration_id: CONFIGURATION_ID,
    attempt,
    status_code: 500,
    latency_ms: 40,
    ...over,
  });

  it('POSTs a delivery message handled twice once, records one attempt and counts one', async () => {
    await worker(delivery());
    const again = await worker(delivery());

    expect(again.batchItemFailures).toEqual([]);
    expect(transport.posts).toBe(1);
    expect(events.attempts).toHaveLength(1);
    expect(counts()).toEqual({ succeeded: 1, failed: 0, exhausted: 0 });
    const lines = harness.logs.map((line) => JSON.parse(line));
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'INFO', message: 'delivery attempt already recorded: not sent again' }),
    );
  });

  it('still queues the retry of a recorded failure when none is recorded (the first run died before queueing it)', async () => {
    events.attempts.push(failedAttempt(1));

    await worker(delivery(1));

    expect(transport.posts).toBe(0);
    expect(queue.sent.map((s) => s.message.body)).toEqual([expect.objectContaining({ attempt: 2 })]);
    expect(harness.metrics).toEqual([]);
  });

  it('queues nothing for a recorded failure whose retry is already recorded, nor for a recorded success or final attempt', async () => {
    events.attempts.push(failedAttempt(1), failedAttempt(2, { status_code: 204 }));
    await worker(delivery(1));
    await worker(delivery(2));
    events.attempts.push(failedAttempt(MAX_ATTEMPTS, { final: true }));
    await worker(delivery(MAX_ATTEMPTS));

    expect(transport.posts).toBe(0);
    expect(queue.sent).toEqual([]);
  });

  it('sends an attempt once when a copy of its message (another message id) is handled while the first is sending', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first POST waits until the copy has run: the copy reads no recorded attempt.
    const slowTransport = transport;
    slowTransport.post = async (target) => {
      slowTransport.targets.push(target);
      await answered;
      return { status: 200, latencyMs: 10 };
    };
    const copy = sqsBatch(
      sqsRecord('m-copy', { tenant: TENANT, event_id: EVENT_ID, configuration_id: CONFIGURATION_ID, attempt: 1 }),
    );

    const first = worker(delivery());
    await new Promise((resolve) => setImmediate(resolve));
    const second = await worker(copy);
    release();
    await first;

    expect(second.batchItemFailures).toEqual([]);
    expect(transport.posts).toBe(1);
    expect(events.attempts).toHaveLength(1);
    expect(harness.logs.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ message: 'delivery attempt being sent by another message: not sent again' }),
    );
  });

  it('sends again for the same message received again (its claim is its own), and for a copy once the claim lapsed', async () => {
    transport.answer = { status: 500, latencyMs: 10 };
    events.failRecords = Number.POSITIVE_INFINITY;
    await worker(delivery(), lambdaContext({ remainingMs: 1_100 })); // sent, not recorded: the message fails
    events.failRecords = 0;

    await worker(delivery()); // the same message id: it sends again
    expect(transport.posts).toBe(2);

    const key = `${CONFIGURATION_ID}#1#-`;
    const claim = events.claims.get(key);
    expect(claim?.holder).toBe('m-1');
    events.attempts.length = 0;
    events.claims.set(key, { holder: 'm-dead', leaseUntil: 0 }); // lapsed long ago
    await worker(
      sqsBatch(
        sqsRecord('m-redriven', { tenant: TENANT, event_id: EVENT_ID, configuration_id: CONFIGURATION_ID, attempt: 1 }),
      ),
    );
    expect(transport.posts).toBe(3);
  });

  it('records a 2xx answer through a table that throttles for a while, rather than leave the message to POST it again', async () => {
    events.failRecords = 4;

    const result = await worker(delivery());

    expect(result.batchItemFailures).toEqual([]);
    expect(transport.posts).toBe(1);
    expect(events.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
    await worker(delivery()); // SQS hands the same message again: nothing is sent twice
    expect(transport.posts).toBe(1);
  });

  it('fails the message when the table stays away past the invocation’s time, so the attempt is not lost', async () => {
    events.failRecords = Number.POSITIVE_INFINITY;

    const result = await worker(delivery(), lambdaContext({ remainingMs: 1_500 }));

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(transport.posts).toBe(1);
  });

  it('sends a redelivery even though the first delivery’s attempt 1 is recorded', async () => {
    const redelivery = '0f1e2d3c-4b5a-4968-8776-655443322110';

    await worker(delivery(1));
    await worker(delivery(1, { redelivery }));
    await worker(delivery(1, { redelivery }));

    expect(transport.posts).toBe(2);
    expect(events.attempts.map((attempt) => attempt.redelivery)).toEqual([undefined, redelivery]);
  });
});

describe('webhook delivery worker: the URL is checked again before each attempt', () => {
  const awsPolicy = () => new DnsWebhookUrlPolicy({ allowLoopbackHttp: false, resolve: async () => ['93.184.215.14'] });

  it('sends to the addresses this attempt’s check approved, not to the URL’s name alone', async () => {
    webhooks.url = 'https://partner.example/hooks?x=1';
    const answers = [['93.184.215.14'], ['2606:2800:21f:cb07:6820:80da:af6b:8b2c']];
    setDependencies({
      webhookUrlPolicy: new DnsWebhookUrlPolicy({
        allowLoopbackHttp: false,
        resolve: async () => answers.shift() ?? ['10.0.0.1'],
      }),
    });

    await worker(delivery(1));
    await worker(delivery(2));

    expect(transport.targets).toEqual([
      { ok: true, url: new URL(webhooks.url), addresses: ['93.184.215.14'] },
      { ok: true, url: new URL(webhooks.url), addresses: ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'] },
    ]);
  });

  it('refuses a stored URL whose port is not 443 before sending, and records why', async () => {
    webhooks.url = 'https://partner.example:8443/hooks';
    setDependencies({ webhookUrlPolicy: awsPolicy() });

    await worker(delivery());

    expect(transport.posts).toBe(0);
    expect(events.attempts).toEqual([
      expect.objectContaining({ latency_ms: 0, error: 'URL refused: The URL’s port must be 443 (https’s own).' }),
    ]);
  });
});
