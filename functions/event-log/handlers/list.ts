import { httpHandler } from '#shared/http/handler';
import { nextLink, pageRequestOf } from '#shared/http/pages';
import { presentEvent } from '../present';
import { listEventsQuery } from '../query-schemas';
import { listEvents } from '../read-events';

/** GET /events — the tenant's events of the last 30 days of the kinds the token reads (test events only with `test=true`), newest first, paged like every list. */
export const handler = httpHandler({ query: listEventsQuery }, async ({ tenant, scopes, query }) => {
  const page = await listEvents(
    tenant,
    scopes,
    { eventTypes: query.event_type, startTime: query.start_time, endTime: query.end_time, test: query.test },
    pageRequestOf(query),
  );
  return {
    body: { events: page.items.map((event) => presentEvent(event.envelope)) },
    headers: nextLink('/events', query, page.next),
  };
});
