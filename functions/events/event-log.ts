import type { PageWindow } from '#domain/pagination';
import { type EventListFilter, events, type StoredEvent } from '#shared/db/events/index';
import { NotFoundError } from '#shared/errors';

/**
 * The event log's reads: list, and one event with its delivery attempts. Redelivery, which
 * sends to a queue, is in redeliver-event.ts, so the read routes bundle no SQS client.
 */
export function listEvents(tenant: string, filter: EventListFilter, page: PageWindow): Promise<StoredEvent[]> {
  return events().list(tenant, filter, page);
}

export async function getEvent(tenant: string, id: string) {
  const stored = await events().get(tenant, id);
  if (!stored) throw unknownEvent();
  return { stored, attempts: await events().attempts(tenant, id) };
}

export const unknownEvent = () =>
  new NotFoundError('unknown_id_event', 'no event has this id (events are kept 30 days)');
