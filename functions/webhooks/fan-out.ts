import { webhooks } from '#shared/db/webhooks/index';
import { messageQueue } from '#shared/queue/index';
import type { DeliveryRequest } from './deliver';

/** A stored event to hand to the tenant's webhooks: its id and type are all fan-out needs. */
export interface PublishedEvent {
  tenant: string;
  event_id: string;
  event_type: string;
}

/**
 * One delivery message per enabled configuration of the tenant that subscribes to the
 * event's type (one Query of the tenant's configurations, batched sends), so a slow or
 * dead endpoint never delays another. Both ways out use it: the stream router for a newly
 * stored event, and `POST /events/{id}/redeliver`. Sending the same event twice (a
 * replayed stream batch) is safe: the delivery worker drops an attempt it has already
 * recorded, and receivers deduplicate on `webhook-id` (the event id). A redelivery names
 * itself (`redelivery`), so its attempts are new ones. Returns how many deliveries were sent.
 */
export async function fanOut(event: PublishedEvent, redelivery?: string): Promise<number> {
  const configurations = await webhooks().enabledConfigurationsFor(event.tenant, event.event_type);
  const deliveries = configurations.map((configuration) => {
    const body: DeliveryRequest = {
      tenant: event.tenant,
      event_id: event.event_id,
      configuration_id: configuration.id,
      attempt: 1,
      ...(redelivery && { redelivery }),
    };
    return { id: configuration.id, body };
  });
  if (deliveries.length > 0) await messageQueue().send('webhookDeliveries', deliveries);
  return deliveries.length;
}
