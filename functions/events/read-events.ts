import {
  EVENT_LOG_SCOPES,
  EVENT_READ_SCOPE,
  ORUM_EVENT_TYPES,
  type OrumEventType,
  readableEventTypes,
} from '#functions/event-catalogue/kinds';
import { type EventListFilter, type EventWithAttempts, events, type StoredEvent } from '#shared/db/events/index';
import type { ListPage, PageRequest } from '#shared/db/list-positions/index';
import { ForbiddenError, NotFoundError } from '#shared/errors';
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
  const unreadable = (filter.eventTypes ?? []).filter((type) => !readable.includes(type));
  if (readable.length === 0 || unreadable.length > 0) throw insufficientScope(unreadable);
  return events().list(tenant, { ...filter, eventTypes: kindsToList(readable, filter.eventTypes) }, request);
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
  const found = await events().withAttempts(tenant, id);
  if (!found) throw unknownEvent();
  const type = found.stored.envelope.event_type as OrumEventType;
  if (!readableEventTypes(scopes).includes(type)) throw insufficientScope([type]);
  return found;
}

export const unknownEvent = () =>
  new NotFoundError('unknown_id_event', 'no event has this id (events are kept 30 days)');

/**
 * 403, not 404, for kinds the token cannot read: the event is the tenant's own and exists;
 * naming the scope that reads it tells the partner what to ask for, and reveals only an
 * event's kind, to a client of the same tenant. A filter naming such a kind is refused
 * rather than answered with a page that silently leaves it out.
 */
function insufficientScope(types: readonly OrumEventType[]): ForbiddenError {
  const scopes = types.length > 0 ? [...new Set(types.map((type) => EVENT_READ_SCOPE[type]))] : [...EVENT_LOG_SCOPES];
  const what = types.length > 0 ? `events of ${types.join(', ')} are` : 'the event log is';
  return new ForbiddenError('insufficient_scope', `${what} read with ${scopes.join(' or ')}`, {
    ...(types.length > 0 && { event_types: [...types] }),
    required_scopes: scopes,
  });
}
