import { httpHandler } from '#shared/http/handler';
import { emptyBody } from '#shared/input-schemas';
import { redeliverEvent } from './redeliver-event';
import { eventIdParams } from './schemas';

/** POST /events/{id}/redeliver — 202: the event goes out again to every subscribed configuration. */
export const handler = httpHandler({ params: eventIdParams, body: emptyBody }, async ({ tenant, params }) => {
  await redeliverEvent(tenant, params.id);
  return { statusCode: 202 };
});
