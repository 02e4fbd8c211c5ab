import { httpHandler } from '#shared/http/handler';
import { emptyBody } from '#shared/input-schemas';
import { eventIdParams } from '../path-params';
import { redeliverEvent } from '../redeliver-event';

/** POST /events/{id}/redeliver — 202: the event goes out again to every subscribed configuration; its kind's read scope too. */
export const handler = httpHandler({ params: eventIdParams, body: emptyBody }, async ({ tenant, scopes, params }) => {
  await redeliverEvent(tenant, scopes, params.id);
  return { statusCode: 202 };
});
