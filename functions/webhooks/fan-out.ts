import { events } from '#shared/db/events/index';
import { webhooks } from '#shared/db/webhooks/index';
import type { Logger } from '#shared/logger';
import { messageQueue } from '#shared/queue/index';
import type { DeliveryRequest } from './deliver';

/** A webhook-events message: a stored event to hand to the tenant's webhooks. */
export interface PublishedEvent {
  tenant: string;
  event_id: string;
}

/**
 * The webhook sender's first step: one delivery message per enabled configuration of the
 * tenant that subscribes to the event's type, so a slow or dead endpoint never delays
 * another. A repeated message fans out again: delivery is at least once, and receivers
 * deduplicate on `webhook-id` (the event id).
 */
export async function fanOut(published: PublishedEvent, logger: Logger): Promise<number> {
  const stored = await events().get(published.tenant, published.event_id);
  if (!stored) {
    logger.warn('event to deliver no longer exists', { event_id: published.event_id });
    return 0;
  }
  const configurations = await webhooks().enabledConfigurationsFor(published.tenant, stored.envelope.event_type);
  const deliveries = configurations.map((configuration) => {
    const body: DeliveryRequest = { ...published, configuration_id: configuration.id, attempt: 1 };
    return { id: configuration.id, body };
  });
  if (deliveries.length > 0) await messageQueue().send('webhookDeliveries', deliveries);
  return deliveries.length;
}
