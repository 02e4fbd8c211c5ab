import { events } from '#shared/db/events/index';
import { messageQueue } from '#shared/queue/index';
import { unknownEvent } from './event-log';

/**
 * Hands an event to the webhook sender again: every configuration subscribed to it now
 * receives it once more, with the same `webhook-id`, through the normal delivery path.
 */
export async function redeliverEvent(tenant: string, id: string): Promise<void> {
  const stored = await events().get(tenant, id);
  if (!stored) throw unknownEvent();
  await messageQueue().send('webhookEvents', [{ id, body: { tenant, event_id: id } }]);
}
