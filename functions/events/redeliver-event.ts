import { events } from '#shared/db/events/index';
import { fanOut } from '../webhooks/fan-out';
import { unknownEvent } from './event-log';

/**
 * Fans an event out again, as the stream router did when it was stored: every
 * configuration subscribed to it now receives it once more, with the same `webhook-id`,
 * through the normal delivery path.
 */
export async function redeliverEvent(tenant: string, id: string): Promise<void> {
  const stored = await events().get(tenant, id);
  if (!stored) throw unknownEvent();
  await fanOut({ tenant, event_id: id, event_type: stored.envelope.event_type });
}
