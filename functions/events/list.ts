import { pageWindow } from '#domain/pagination';
import { httpHandler } from '#shared/http/handler';
import { listEvents } from './event-log';
import { presentEvent } from './present';
import { listEventsQuery } from './schemas';

/** GET /events — the tenant's events of the last 30 days of the kinds the token reads, newest first, paged like every list. */
export const handler = httpHandler({ query: listEventsQuery }, async ({ tenant, scopes, query }) => {
  const stored = await listEvents(
    tenant,
    scopes,
    { eventTypes: query.event_type, startTime: query.start_time, endTime: query.end_time },
    pageWindow(query.index, query.size),
  );
  return { body: { events: stored.map((event) => presentEvent(event.envelope)) } };
});
