import { describe, expect, it } from 'vitest';
import { CreatedIdTaken, createdId, createUnder } from '#shared/created-id';
import { earlierAttempt } from '#shared/db/created-item';
import { UnprocessableError } from '#shared/errors';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const IDENTITY = { id: `${'c0ffee'.repeat(10)}abcd` };
const REQUEST = { ...IDENTITY, fingerprint: 'fp-1' };

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

describe('a create under the id of its request (createUnder)', () => {
  it("runs once, under the key's id and with the request's fingerprint", async () => {
    const calls: [string, string | undefined][] = [];
    const made = await createUnder(REQUEST, async (id, fingerprint) => {
      calls.push([id, fingerprint]);
      return id;
    });
    expect(calls).toEqual([[createdId(IDENTITY), 'fp-1']]);
    expect(made).toBe(createdId(IDENTITY));
  });

  it('runs without a key under a random id and no fingerprint', async () => {
    const calls: [string, string | undefined][] = [];
    await createUnder(undefined, async (id, fingerprint) => void calls.push([id, fingerprint]));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toMatch(UUID_V4);
    expect(calls[0]?.[1]).toBeUndefined();
  });

  it("runs again under a random id, without the fingerprint, when the key's id belongs to an older item", async () => {
    const calls: [string, string | undefined][] = [];
    const made = await createUnder(REQUEST, async (id, fingerprint) => {
      calls.push([id, fingerprint]);
      if (calls.length === 1) throw new CreatedIdTaken();
      return id;
    });
    expect(calls).toHaveLength(2);
    expect(calls[1]?.[0]).not.toBe(createdId(IDENTITY));
    expect(calls[1]?.[0]).toMatch(UUID_V4);
    expect(calls[1]?.[1]).toBeUndefined();
    expect(made).toBe(calls[1]?.[0]);
  });

  it('passes any other failure on, without a second run', async () => {
    let runs = 0;
    const failure = new Error('table gone');
    await expect(
      createUnder(REQUEST, async () => {
        runs++;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(runs).toBe(1);
  });
});

describe('the item a create finds under its id (earlierAttempt)', () => {
  const NOW = new Date('2026-11-27T12:00:00.000Z');
  const item = (hoursAgo: number, fingerprint = 'fp-1') => ({
    id: 'x',
    created_at: new Date(NOW.getTime() - hoursAgo * 3_600_000).toISOString(),
    request_fingerprint: fingerprint,
  });

  it("is answered when the same request made it within the key's 24 h", () => {
    const stored = item(23.9);
    expect(earlierAttempt(stored, 'fp-1', NOW)).toBe(stored);
  });

  it('is idempotency_key_reused when another request made it', () => {
    const reused = (() => {
      try {
        earlierAttempt(item(1, 'fp-2'), 'fp-1', NOW);
      } catch (error) {
        return error;
      }
    })();
    expect(reused).toBeInstanceOf(UnprocessableError);
    expect((reused as UnprocessableError).code).toBe('idempotency_key_reused');
  });

  it('leaves the id to no one once the key is 24 h old, or the item has gone: CreatedIdTaken', () => {
    expect(() => earlierAttempt(item(24), 'fp-1', NOW)).toThrow(CreatedIdTaken);
    expect(() => earlierAttempt(item(24, 'fp-2'), 'fp-1', NOW)).toThrow(CreatedIdTaken);
    expect(() => earlierAttempt(undefined, 'fp-1', NOW)).toThrow(CreatedIdTaken);
  });
});
