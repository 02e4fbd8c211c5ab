import { describe, expect, it } from 'vitest';
import { createdId } from '#shared/created-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const IDENTITY = { id: 'c0ffee'.repeat(10) + 'abcd' };

describe('the id a create gives what it makes', () => {
  it('is the same on every retry of a request with an Idempotency-Key, and a UUID', () => {
    expect(createdId(IDENTITY)).toBe(createdId({ ...IDENTITY }));
    expect(createdId(IDENTITY)).toMatch(UUID_V4);
  });

  it('differs between keys, and is random without one', () => {
    expect(createdId({ id: 'ab'.repeat(32) })).not.toBe(createdId(IDENTITY));
    expect(createdId()).not.toBe(createdId());
    expect(createdId()).toMatch(UUID_V4);
  });
});
