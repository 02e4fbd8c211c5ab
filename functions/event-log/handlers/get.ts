import { httpHandler } from '#shared/http/handler';
import { eventIdParams } from '../path-params';
import { presentAttempt, presentEvent } from '../present';
import { getEvent } from '../read-events';

/** GET /events/{id} — the event and its delivery attempts `{ at, url, status_code, latency_ms, error? }`, if the token reads its kind. */
export const handler = httpHandler({ params: eventIdParams }, async ({ tenant, scopes, params }) => {
  const { stored, attempts } = await getEvent(tenant, scopes, params.id);
  return { body: { event: { ...presentEvent(stored.envelope), attempts: attempts.map(presentAttempt) } } };
});
