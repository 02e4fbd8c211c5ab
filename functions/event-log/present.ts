import type { EventEnvelope } from '#domain/event-envelope';
import type { DeliveryAttempt } from '#shared/db/stored-events/index';
import { omitAbsent } from '#shared/present';

/** An event as partners receive it: the envelope exactly as webhooks carry it. */
export const presentEvent = (envelope: EventEnvelope) => ({
  event_id: envelope.event_id,
  event_type: envelope.event_type,
  created_at: envelope.created_at,
  ...(envelope.test && { test: true as const }),
  event_data: envelope.event_data,
});

/** One delivery attempt as `GET /events/{id}` shows it. */
export const presentAttempt = (attempt: DeliveryAttempt) =>
  omitAbsent({
    at: attempt.at,
    url: attempt.url,
    status_code: attempt.status_code,
    latency_ms: attempt.latency_ms,
    error: attempt.error,
    final: attempt.final,
  });
