import { EVENT_RETENTION_MS } from '#domain/event-envelope';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { DELIVERY_TIMEOUT_MS, isSuccess, nextAttemptDelay } from '#domain/webhook-delivery';
import { webhookHeaders } from '#domain/webhook-signing';
import { type DeliveryAttempt, storedEvents } from '#shared/db/stored-events/index';
import { type SigningSecrets, webhookSecrets } from '#shared/db/webhook-secrets/index';
import { now } from '#shared/dependencies';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';
import { messageQueue } from '#shared/queue/index';
import { untilWritten } from '#shared/until-written';
import { webhookTransport } from '#shared/webhook-transport/index';
import { webhookUrlPolicy } from '#shared/webhook-url/index';
import { configurationsPerBatch, OncePerTenant } from './batch-reads';
import type { DeliveryMessage } from './delivery-message';
import { receives } from './subscriptions';

/** SQS delays a message at most 15 minutes; longer waits are chained. */
export const MAX_DELAY_SECONDS = 900;

/**
 * How long a message's claim on an attempt keeps other copies from sending it: past the
 * worker's 20 s, so only a holder that died (its message dead-lettered, then redriven under
 * a new id) is taken over.
 */
const CLAIM_LEASE_MS = 60_000;

class DeliveryExhausted extends Error {}

/**
 * What the deliveries of one batch read once per tenant (./batch-reads.ts): the tenant's
 * configurations and its signing secrets. The worker makes one per invocation.
 */
interface DeliveryReads {
  configurations: OncePerTenant<WebhookConfiguration[]>;
  secrets: OncePerTenant<SigningSecrets>;
}

export const deliveryReads = (): DeliveryReads => ({
  configurations: configurationsPerBatch(),
  secrets: new OncePerTenant((tenant) => webhookSecrets().signingSecretsOf(tenant)),
});

/**
 * One delivery attempt (docs/api.md#delivery): checks the URL again (DNS can change) and
 * connects to the addresses that check approved, signs the event with the tenant's secrets (two during a rotation) per Standard Webhooks,
 * POSTs it with a 10 s limit, and records the attempt beside the event. A failure is
 * retried by a new message delayed by the backoff schedule (5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h); after the last, the delivery is marked final and dead-lettered. The same event
 * always carries the same `webhook-id`. An attempt already recorded (the same message
 * again, or a replayed stream batch's fan-out) is not POSTed again, nor is one that another
 * copy of the message is sending right now (`claimAttempt`).
 */
export async function deliver(
  request: DeliveryMessage,
  logger: Logger,
  reads: DeliveryReads,
  invocation: { readonly holder: string; readonly remainingMs: () => number },
): Promise<void> {
  const { holder, remainingMs } = invocation;
  if (request.exhausted)
    throw new DeliveryExhausted(`delivery of ${request.event_id} gave up after ${request.attempt} attempts`);
  if (request.remaining_seconds) return requeue(request, request.remaining_seconds);
  const at = now();

  const log = await storedEvents().withAttempts(request.tenant, request.event_id);
  if (!log) {
    logger.info('delivery dropped: the event expired', { ...ids(request) });
    return;
  }
  const recorded = log.attempts.find((attempt) => isAttemptOf(request, attempt));
  if (recorded) {
    logger.info('delivery attempt already recorded: not sent again', { ...ids(request) });
    return resumeAfter(request, recorded, log.attempts);
  }
  const { stored } = log;
  const configuration = (await reads.configurations.of(request.tenant)).find(
    ({ id }) => id === request.configuration_id,
  );
  // Replaced or disabled since the fan-out: it receives the kind now, or the delivery ends.
  if (!configuration || !receives(configuration, stored.envelope.event_type)) {
    logger.info('delivery dropped: the configuration is gone, disabled or no longer receives this kind', {
      ...ids(request),
    });
    return;
  }
  // A second copy of this message (a stream batch replayed) may be at this very point: one sends.
  const claimed = await storedEvents().claimAttempt(
    request.tenant,
    request.event_id,
    request,
    holder,
    at,
    new Date(at.getTime() + CLAIM_LEASE_MS),
  );
  if (!claimed) {
    logger.info('delivery attempt being sent by another message: not sent again', { ...ids(request) });
    return;
  }
  const body = JSON.stringify(stored.envelope);
  const { sent, ...outcome } = await post(request, configuration.url, body, at, reads.secrets);
  const success = outcome.status_code !== undefined && isSuccess(outcome.status_code);
  const delay = success ? undefined : nextAttemptDelay(request.attempt);
  const attempt: DeliveryAttempt = {
    at: at.toISOString(),
    url: configuration.url,
    configuration_id: configuration.id,
    attempt: request.attempt,
    ...outcome,
    final: !success && delay === undefined ? true : undefined,
    redelivery: request.redelivery,
  };
  const expires = Math.ceil((Date.parse(stored.envelope.created_at) + EVENT_RETENTION_MS) / 1000);
  // Kept among the event's newest attempts; unrecorded only if every slot tried was taken meanwhile.
  // The POST went out: a message failed now would send it again (untilWritten).
  const kept = await untilWritten(
    () => storedEvents().recordAttempt(request.tenant, request.event_id, attempt, expires, log.attempts),
    remainingMs,
  );
  if (!kept) logger.warn('delivery attempt not recorded: its slots were taken meanwhile', { ...ids(request) });
  countAttempt(success, sent ? outcome.latency_ms : undefined, attempt.final === true);
  logger.info('webhook delivery attempt', {
    ...ids(request),
    status_code: outcome.status_code,
    latency_ms: outcome.latency_ms,
    error: outcome.error,
    success,
    // Saved before scopes were stored (issue 27): operators ask its tenant to save it again.
    grandfathered: configuration.scopes === undefined || undefined,
  });
  if (success) return;
  if (delay === undefined) return requeue({ ...request, exhausted: true }, 0);
  return requeue({ ...request, attempt: request.attempt + 1 }, delay);
}

/** Whether `attempt` is the record of this request's try: same configuration, same delivery, same number. */
const isAttemptOf = (request: DeliveryMessage, attempt: DeliveryAttempt, n = request.attempt): boolean =>
  attempt.configuration_id === request.configuration_id &&
  attempt.attempt === n &&
  attempt.redelivery === request.redelivery;

/**
 * A duplicate of an attempt already made sends nothing, but the delivery must not stop
 * there: if the first run died between recording a failed attempt and queueing the retry,
 * this message is the only one left. So a recorded failure that is neither final nor
 * followed by a recorded next attempt queues that next attempt again (at worst a second
 * message for it, itself dropped as a duplicate once the attempt is recorded).
 */
function resumeAfter(request: DeliveryMessage, recorded: DeliveryAttempt, attempts: DeliveryAttempt[]) {
  const succeeded = recorded.status_code !== undefined && isSuccess(recorded.status_code);
  if (succeeded || recorded.final) return;
  if (attempts.some((attempt) => isAttemptOf(request, attempt, request.attempt + 1))) return;
  const delay = nextAttemptDelay(request.attempt);
  if (delay === undefined) return;
  return requeue({ ...request, attempt: request.attempt + 1 }, delay);
}

async function post(
  request: DeliveryMessage,
  url: string,
  body: string,
  at: Date,
  signing: OncePerTenant<SigningSecrets>,
) {
  const check = await webhookUrlPolicy().check(url);
  if (!check.ok) return { sent: false, latency_ms: 0, error: `URL refused: ${check.reason}` };
  const secrets = await (await signing.of(request.tenant)).at(at);
  if (secrets.length === 0) {
    return { sent: false, latency_ms: 0, error: 'no signing secret: create one with POST /webhooks/secret' };
  }
  const headers = webhookHeaders(secrets, request.event_id, Math.floor(at.getTime() / 1000), body);
  // To the addresses this check approved: a second DNS answer could be a private one.
  const result = await webhookTransport().post(check, headers, body, DELIVERY_TIMEOUT_MS);
  return 'status' in result
    ? { sent: true, status_code: result.status, latency_ms: result.latencyMs }
    : { sent: true, latency_ms: result.latencyMs, error: result.error };
}

/**
 * One attempt's metrics: its outcome, its latency when a request went out (an attempt
 * refused before sending — the URL, no secret — has none to measure), and the delivery's
 * end when this was its last try.
 */
function countAttempt(success: boolean, latencyMs: number | undefined, final: boolean): void {
  metrics().count(success ? 'WebhookDeliverySucceeded' : 'WebhookDeliveryFailed');
  if (latencyMs !== undefined) metrics().latency('WebhookDeliveryLatency', latencyMs);
  if (final) metrics().count('WebhookDeliveryExhausted');
}

/** Sends the request again after `waitSeconds`: one delayed message, or the first of a chain. */
function requeue(request: DeliveryMessage, waitSeconds: number): Promise<void> {
  const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, waitSeconds));
  const remaining = waitSeconds - delaySeconds;
  const body: DeliveryMessage = { ...request, remaining_seconds: remaining > 0 ? remaining : undefined };
  return messageQueue().send('webhookDeliveries', [{ id: request.configuration_id, body, delaySeconds }]);
}

const ids = (request: DeliveryMessage) => ({
  event_id: request.event_id,
  configuration_id: request.configuration_id,
  attempt: request.attempt,
});
