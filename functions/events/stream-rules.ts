import type { StreamRule } from '#shared/stream/rules';

/** A newly stored event is published: handed to the webhook-events queue, once (outbox). */
export const eventStreamRule: StreamRule = ({ eventName, tenant, newImage }) =>
  eventName === 'INSERT' ? [{ kind: 'publish-event', tenant, eventId: String(newImage.id) }] : [];
