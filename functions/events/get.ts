import { httpHandler } from '#shared/http/handler';
import { getEvent } from './event-log';
import { presentAttempt, presentEvent } from './present';
import { eventIdParams } from './schemas';

/** GET /events/{id} — the event and every delivery attempt `{ at, url, status_code, latency_ms, error? }`. */
export const handler = httpHandler({ params: eventIdParams }, async ({ tenant, params }) => {
  const { stored, attempts } = await getEvent(tenant, params.id);
  return { body: { event: { ...presentEvent(stored.envelope), attempts: attempts.map(presentAttempt) } } };
});
