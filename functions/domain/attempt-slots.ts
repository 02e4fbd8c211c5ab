import { createHash } from 'node:crypto';

// Where an event's delivery attempts are kept (docs/api.md#event-log): at most
// MAX_STORED_ATTEMPTS, the newest, each in one of that many slots of the event's partition.
// A new attempt takes a free slot, else the slot of an old one; taking it is a conditional
// write on what the writer saw there, so concurrent writers can never store more than the
// cap. Pure: the repository does the writes.

/** Delivery attempts kept per event: with redelivery paced, ~14 deliveries to one endpoint or 2 rounds to ten. */
export const MAX_STORED_ATTEMPTS = 100;

/**
 * Writers of one event at the same moment (a fan-out reaches up to 10 configurations, and a
 * few redeliveries may be in flight) start at different ones of this many free slots, so
 * they seldom reach for the same one.
 */
const SPREAD = 32;

/** Slots tried before an attempt goes unrecorded (it is still sent and retried). */
export const SLOT_TRIES = 16;

export interface HeldSlot {
  readonly slot: number;
  /** When the attempt in it was made (RFC 3339, compared as text). */
  readonly at: string;
}

/**
 * The slots to try for a new attempt, in order: free slots first, the first SPREAD of them
 * rotated by `seed` (the attempt's identity) so concurrent writers of one event begin
 * apart, then held ones oldest first, so the oldest attempt is the one replaced. A writer
 * that loses a slot goes on to the next: every writer takes one slot, so up to SLOT_TRIES
 * writers that saw the same attempts all find one.
 */
export function slotCandidates(held: readonly HeldSlot[], seed: string, cap = MAX_STORED_ATTEMPTS): number[] {
  const taken = new Set(held.map((h) => h.slot));
  const free = Array.from({ length: cap }, (_, slot) => slot).filter((slot) => !taken.has(slot));
  const oldest = [...held]
    .filter((h) => h.slot >= 0 && h.slot < cap)
    .sort((a, b) => (a.at === b.at ? a.slot - b.slot : a.at < b.at ? -1 : 1))
    .map((h) => h.slot);
  const window = free.slice(0, SPREAD);
  const start = window.length > 0 ? createHash('sha1').update(seed).digest().readUInt32BE(0) % window.length : 0;
  return [...window.slice(start), ...window.slice(0, start), ...free.slice(SPREAD), ...oldest].slice(0, SLOT_TRIES);
}
