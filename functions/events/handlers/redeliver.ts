import { httpHandler } from '#shared/http/handler';
import { emptyBody } from '#shared/input-schemas';
import { eventIdParams } from '../params';
import { redeliverEvent } from '../redeliver-event';

/** POST /events/{id}/redeliver — 202: the event goes out again to every subscribed configuration. */
export const handler = httpHandler({ params: eventIdParams, body: emptyBody }, async ({ tenant, params }) => {
  await redeliverEvent(tenant, params.id);
  return { statusCode: 202 };
});
