import { randomUUID } from 'node:crypto';
import { eventRecord, type OrumEventType } from '#functions/event-catalogue/kinds';
import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { redeliveryLimits, storedEvents } from '#shared/db/stored-events/index';
import { now } from '#shared/dependencies';
import { RateLimitError, retryAfter } from '#shared/errors';
import { sampleEventData } from './samples';

/**
 * POST /webhooks/invoke (docs/api.md#test-event): a test event of `eventType` carrying `data`
 * (the record itself, as Orum's test request has it, under `event_data.<record>`) or a
 * generated sample. It is stored in the event log and goes out through the real delivery
 * path, so its attempts show in `GET /events/{id}`; but it is marked `test: true` in the
 * signed envelope and listed apart, so neither a receiver nor the event log takes it for a
 * change of a record. It fans out as a redelivery does, so it spends the same per-tenant
 * budget (10 at once, then one a second): paced before anything is stored. With `keep`
 * (HandlerRequest.answers), the request's answer is written with the event.
 */
export async function sendTestEvent(
  tenant: string,
  eventType: OrumEventType,
  data: Record<string, unknown> | undefined,
  keep?: KeepAnswer<void>,
): Promise<void> {
  const at = now();
  const admission = await redeliveryLimits().admitTestEvent(tenant, at);
  if (!admission.allowed) {
    const wait = admission.retryAfterSeconds;
    throw new RateLimitError(
      'invoke_rate_exceeded',
      `this client sent 10 test events and redeliveries at once; one more is allowed each second: retry after ${wait} s`,
      ...retryAfter(wait),
    );
  }
  const created = at.toISOString();
  await storedEvents().store(
    tenant,
    {
      event_id: randomUUID(),
      event_type: eventType,
      created_at: created,
      test: true,
      event_data: data ? { [eventRecord(eventType)]: data } : sampleEventData(eventType, created),
    },
    keep,
  );
}
