import { ORUM_EVENT_TYPES, type OrumEventType, readableEventTypes } from '#functions/event-catalogue/kinds';
import { insufficientScope, unreadableSelectors } from '#functions/event-catalogue/read-scopes';
import type { ListPage, PageRequest } from '#shared/db/list-positions/index';
import {
  type EventListFilter,
  type EventWithAttempts,
  eventList,
  type StoredEvent,
  storedEvents,
} from '#shared/db/stored-events/index';
import { NotFoundError } from '#shared/errors';
import type { Scope } from '#shared/scopes';

// The event log's reads: list, and one event with its delivery attempts, each limited to
// the kinds the token's scopes read (docs/api.md#event-log). Redelivery, which sends to a
// queue, is in redeliver-event.ts, so the read routes bundle no SQS client.

export function listEvents(
  tenant: string,
  scopes: readonly Scope[],
  filter: Omit<EventListFilter, 'eventTypes'> & { eventTypes?: readonly OrumEventType[] },
  request: PageRequest,
): Promise<ListPage<StoredEvent>> {
  const readable = readableEventTypes(scopes);
  const unreadable = unreadableSelectors(filter.eventTypes ?? [], scopes);
  if (readable.length === 0 || unreadable.length > 0) throw insufficientScope(unreadable, scopes);
  return eventList().page(tenant, { ...filter, eventTypes: kindsToList(readable, filter.eventTypes) }, request);
}

/**
 * The kinds a list reads: the set of kinds asked (every readable kind when none is named)
 * within those the token reads, or undefined, no event_type condition at all, only when
 * that set is every kind there is. A set, not a count: a kind named as many times as
 * there are kinds is still one kind.
 */
export function kindsToList(
  readable: readonly OrumEventType[],
  asked: readonly OrumEventType[] = readable,
): OrumEventType[] | undefined {
  const kinds = [...new Set(asked)].filter((type) => readable.includes(type));
  return ORUM_EVENT_TYPES.every((type) => kinds.includes(type)) ? undefined : kinds;
}

/** The event and its delivery attempts, in one Query of the event's partition. */
export async function getEvent(tenant: string, scopes: readonly Scope[], id: string): Promise<EventWithAttempts> {
  const found = await storedEvents().withAttempts(tenant, id);
  if (!found) throw unknownEvent();
  const type = found.stored.envelope.event_type;
  if (unreadableSelectors([type], scopes).length > 0) throw insufficientScope([type], scopes);
  return found;
}

export const unknownEvent = () =>
  new NotFoundError('unknown_id_event', 'no event has this id (events are kept 30 days)');
