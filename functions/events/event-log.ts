import type { PageWindow } from '#domain/pagination';
import { type EventListFilter, type EventWithAttempts, events, type StoredEvent } from '#shared/db/events/index';
import { NotFoundError } from '#shared/errors';

/**
 * The event log's reads: list, and one event with its delivery attempts. Redelivery, which
 * sends to a queue, is in redeliver-event.ts, so the read routes bundle no SQS client.
 */
export function listEvents(tenant: string, filter: EventListFilter, page: PageWindow): Promise<StoredEvent[]> {
  return events().list(tenant, filter, page);
}

/** The event and its delivery attempts, in one Query of the event's partition. */
export async function getEvent(tenant: string, id: string): Promise<EventWithAttempts> {
  const found = await events().withAttempts(tenant, id);
  if (!found) throw unknownEvent();
  return found;
}

export const unknownEvent = () =>
  new NotFoundError('unknown_id_event', 'no event has this id (events are kept 30 days)');
