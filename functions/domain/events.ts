import { createHash } from 'node:crypto';
import type { VerifyAccount } from './verify-account';

/**
 * Events partners are told about (DESIGN.md §6). The id is derived from the record and
 * its version, so a stream record processed twice yields the same event, which is then
 * stored once.
 */
export const EVENT_TYPES = [
  'person_created',
  'person_verified',
  'person_rejected',
  'person_restricted',
  'person_closed',
  'verify_account_updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Events are kept this long (TTL), for the event log and redelivery. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface EventEnvelope {
  event_id: string;
  event_type: EventType;
  /** RFC 3339 with milliseconds: when the change happened. */
  created_at: string;
  event_data: Record<string, unknown>;
}

/** A fixed namespace so ids are stable across deployments and replays. */
const NAMESPACE = '5f0c3b8e-8a0e-4c57-9d1b-6a3f2f1de7a4';

/** A name-based (version 5, SHA-1) UUID of `<event type>:<record id>:<version>`. */
export function eventId(eventType: EventType, recordId: string, version: number): string {
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

/** The fields whose change partners hear about through `verify_account_updated`. */
export const VERIFY_ACCOUNT_STATUS_FIELDS = [
  'verification_status',
  'status_reason',
  'ownership_status',
  'control_status',
  'debit_status',
  'debit_status_reason',
] as const satisfies readonly (keyof VerifyAccount)[];

export function verifyAccountStatusChanged(before: Partial<VerifyAccount>, after: Partial<VerifyAccount>): boolean {
  return VERIFY_ACCOUNT_STATUS_FIELDS.some((field) => before[field] !== after[field]);
}
