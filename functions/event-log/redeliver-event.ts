import { randomUUID } from 'node:crypto';
import { insufficientScope, unreadableSelectors } from '#functions/event-catalogue/read-scopes';
import { fanOut } from '#functions/webhooks/fan-out';
import { redeliveryLimits } from '#shared/db/stored-events/index';
import { now } from '#shared/dependencies';
import { RateLimitError, retryAfter } from '#shared/errors';
import type { Scope } from '#shared/scopes';
import { unknownEvent } from './read-events';

/**
 * Fans an event out again, as the stream router did when it was stored: every
 * configuration subscribed to it now receives it once more, with the same `webhook-id`,
 * through the normal delivery path, as attempts of a new redelivery (not duplicates of the
 * first delivery's, which the delivery worker would drop). Paced per event and per tenant
 * (docs/api.md#redelivery-limits): each redelivery makes the shared delivery pool POST to
 * every subscribed endpoint. Sending an event out again is reading it, so it takes the
 * event's read scope besides `invoke:webhook` (403 before any budget is spent).
 */
export async function redeliverEvent(tenant: string, scopes: readonly Scope[], id: string): Promise<void> {
  const readable = (eventType: string) => unreadableSelectors([eventType], scopes).length === 0;
  const admission = await redeliveryLimits().admit(tenant, id, now(), readable);
  if (admission.kind === 'unknown') throw unknownEvent();
  if (admission.kind === 'forbidden') throw insufficientScope([admission.eventType], scopes);
  if (admission.kind === 'refused') throw redeliveryRefused(admission.limit, admission.retryAfterSeconds);
  await fanOut({ tenant, event_id: id, event_type: admission.eventType }, randomUUID());
}

/** 429 with `Retry-After`, as the tenant's request rate limit answers. */
function redeliveryRefused(limit: 'event' | 'tenant', retryAfterSeconds: number): RateLimitError {
  const wait = `retry after ${retryAfterSeconds} s`;
  return limit === 'event'
    ? new RateLimitError(
        'too_many_redeliveries',
        `this event was redelivered 5 times recently; one more is allowed every 4.8 hours: ${wait}`,
        ...retryAfter(retryAfterSeconds),
      )
    : new RateLimitError(
        'redelivery_rate_exceeded',
        `this client sent 10 redeliveries and test events at once; one more is allowed each second: ${wait}`,
        ...retryAfter(retryAfterSeconds),
      );
}
