import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { messageQueue } from '#shared/queue/index';
import type { AddressedMessage, QueueId } from '#shared/queue/message-queue';
import { configurationsPerBatch, type OncePerTenant } from './batch-reads';
import type { DeliveryMessage } from './delivery-message';
import { receives } from './subscriptions';

/** A stored event to hand to the tenant's webhooks: its id and type are all fan-out needs. */
interface PublishedEvent {
  tenant: string;
  event_id: string;
  event_type: string;
}

const DELIVERIES: QueueId = 'webhookDeliveries';

interface FanOutOptions {
  /** Set for `POST /events/{id}/redeliver`: a fresh id per request. */
  redelivery?: string;
  /**
   * The tenant's configurations as the batch at hand reads them: the stream router passes
   * one per invocation, so a batch of many events of one tenant reads them once. Default: a
   * read of this event's own.
   */
  configurations?: OncePerTenant<WebhookConfiguration[]>;
}

/**
 * One delivery message per enabled configuration of the tenant that subscribes to the
 * event's type and whose saved scopes read it (`receives`; one Query of the tenant's configurations, once per batch), so a slow or
 * dead endpoint never delays another. Sending the same event twice (a replayed stream batch) is safe: the
 * delivery worker drops an attempt it has already recorded, and receivers deduplicate on
 * `webhook-id` (the event id). A redelivery names itself (`redelivery`), so its attempts
 * are new ones. The messages are returned, not sent, so a caller may hold them and send
 * them with others (one send then carries many events' deliveries, hence ids that name the
 * event as well as the configuration); `fanOut` sends them at once.
 */
export async function deliveriesOf(
  event: PublishedEvent,
  { redelivery, configurations = configurationsPerBatch() }: FanOutOptions = {},
): Promise<AddressedMessage[]> {
  const subscribed = (await configurations.of(event.tenant)).filter((configuration) =>
    receives(configuration, event.event_type),
  );
  return subscribed.map((configuration) => {
    const body: DeliveryMessage = {
      tenant: event.tenant,
      event_id: event.event_id,
      configuration_id: configuration.id,
      attempt: 1,
      ...(redelivery && { redelivery }),
    };
    return { queue: DELIVERIES, message: { id: `${event.event_id}/${configuration.id}`, body } };
  });
}

/**
 * An event's deliveries, sent at once (one batched send): for `POST /events/{id}/redeliver`,
 * which answers only once they are queued. Returns how many deliveries were sent.
 */
export async function fanOut(event: PublishedEvent, redelivery?: string): Promise<number> {
  const messages = (await deliveriesOf(event, { redelivery })).map(({ message }) => message);
  if (messages.length > 0) await messageQueue().send(DELIVERIES, messages);
  return messages.length;
}
