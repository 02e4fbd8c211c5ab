import type { StreamRule } from '#shared/stream/rules';

/**
 * A newly stored event is published (outbox): fanned out to the tenant's subscribed
 * configurations. The stream image carries the event's id and type, so publishing reads
 * nothing back.
 */
export const eventStreamRule: StreamRule = ({ eventName, tenant, newImage }) =>
  eventName === 'INSERT'
    ? [{ kind: 'publish-event', tenant, eventId: String(newImage.id), eventType: String(newImage.event_type) }]
    : [];
