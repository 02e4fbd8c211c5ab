import { randomUUID } from 'node:crypto';
import { events } from '#shared/db/events/index';
import { fanOut } from '../webhooks/fan-out';
import { unknownEvent } from './event-log';

/**
 * Fans an event out again, as the stream router did when it was stored: every
 * configuration subscribed to it now receives it once more, with the same `webhook-id`,
 * through the normal delivery path, as attempts of a new redelivery (not duplicates of the
 * first delivery's, which the delivery worker would drop).
 */
export async function redeliverEvent(tenant: string, id: string): Promise<void> {
  const stored = await events().get(tenant, id);
  if (!stored) throw unknownEvent();
  await fanOut({ tenant, event_id: id, event_type: stored.envelope.event_type }, randomUUID());
}
