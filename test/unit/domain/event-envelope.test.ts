import { describe, expect, it } from 'vitest';
import { eventId } from '#domain/event-envelope';

describe('event ids', () => {
  it('are the same for the same record version, so a replayed stream record stores no second event', () => {
    expect(eventId('verify_account_updated', 'a1', 3)).toBe(eventId('verify_account_updated', 'a1', 3));
  });

  it('differ by record, version and event type', () => {
    const ids = new Set([
      eventId('verify_account_updated', 'a1', 1),
      eventId('verify_account_updated', 'a1', 2),
      eventId('verify_account_updated', 'a2', 1),
      eventId('person_verified', 'a1', 1),
    ]);
    expect(ids.size).toBe(4);
  });

  it('are RFC 4122 version 5 UUIDs', () => {
    expect(eventId('person_created', 'p1', 1)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
