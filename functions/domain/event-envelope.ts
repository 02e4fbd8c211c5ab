import { createHash } from 'node:crypto';

// The event envelope (docs/api.md#events): what every event partners are told about
// shares, whatever its kind, and its id. Each area declares its own kinds in its
// event-kinds.ts (functions/verify-accounts/event-kinds.ts, …); functions/event-catalogue/
// joins them.
// The id is derived from the record and its version, so a stream record processed twice
// yields the same event, which is then stored once.

/** Events are kept this long (TTL), for the event log and redelivery. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface EventEnvelope {
  event_id: string;
  event_type: string;
  /** RFC 3339 with milliseconds: when the change happened. */
  created_at: string;
  /**
   * Marks a test event (`POST /webhooks/invoke`), in the signed body, so neither a receiver
   * nor the event log takes it for a change of a record; absent on real events (Orum has no
   * such field: docs/api.md#test-event).
   */
  test?: true;
  event_data: Record<string, unknown>;
}

/** A fixed namespace so ids are stable across deployments and replays. */
const NAMESPACE = '5f0c3b8e-8a0e-4c57-9d1b-6a3f2f1de7a4';

/** A name-based (version 5, SHA-1) UUID of `<event type>:<record id>:<version>`. */
export function eventId(eventType: string, recordId: string, version: number): string {
  const hash = createHash('sha1')
    .update(Buffer.from(NAMESPACE.replace(/-/g, ''), 'hex'))
    .update(`${eventType}:${recordId}:${version}`, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
