import type { EventEnvelope } from '#domain/event-envelope';
import type { QueueId, QueueMessage } from '#shared/queue/message-queue';

/** A stored item as a stream image shows it (unmarshalled). */
export type Image = Record<string, unknown>;

/** One change of one item, as the stream router hands it to the rules of the item's entity. */
export interface StreamChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  tenant: string;
  oldImage?: Image;
  newImage: Image;
}

/**
 * What a change asks for. The router performs them in order, except that queue messages
 * (`enqueue`, a published event's deliveries) are held and sent together at the end of the
 * stream batch. Each is safe to repeat (a replayed stream batch, or the records after a
 * failed send): work messages are idempotent at their consumer, events are stored once per
 * id, and a delivery already attempted is not attempted again.
 */
export type StreamAction =
  | { kind: 'enqueue'; queue: QueueId; message: QueueMessage }
  | { kind: 'record-event'; tenant: string; envelope: EventEnvelope }
  | { kind: 'publish-event'; tenant: string; eventId: string; eventType: string };

/**
 * An area's rules for changes of one entity: pure, so each area tests its own without a
 * stream. Declared in functions/<area>/stream-rules.ts, joined by entity in
 * functions/pipeline/stream-rules.ts; the table access and queues they need are declared
 * in the area's `streamRules` in lib/service/.
 */
export type StreamRule = (change: StreamChange) => StreamAction[];
