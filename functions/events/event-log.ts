import type { PageWindow } from '#domain/pagination';
import { type EventListFilter, events, type StoredEvent } from '#shared/db/events/index';
import { NotFoundError } from '#shared/errors';
import { messageQueue } from '#shared/queue/index';

/** The event log's use cases: list, one event with its delivery attempts, redelivery. */
export function listEvents(tenant: string, filter: EventListFilter, page: PageWindow): Promise<StoredEvent[]> {
  return events().list(tenant, filter, page);
}

export async function getEvent(tenant: string, id: string) {
  const stored = await events().get(tenant, id);
  if (!stored) throw unknownEvent();
  return { stored, attempts: await events().attempts(tenant, id) };
}

/**
 * Hands an event to the webhook sender again: every configuration subscribed to it now
 * receives it once more, with the same `webhook-id`, through the normal delivery path.
 */
export async function redeliverEvent(tenant: string, id: string): Promise<void> {
  const stored = await events().get(tenant, id);
  if (!stored) throw unknownEvent();
  await messageQueue().send('webhookEvents', [{ id, body: { tenant, event_id: id } }]);
}

const unknownEvent = () => new NotFoundError('unknown_id_event', 'no event has this id (events are kept 30 days)');
