import { describe, expect, it } from 'vitest';
import { take } from '#domain/token-bucket';

const policy = { ratePerSecond: 2, burst: 3 };

describe('the per-tenant token bucket', () => {
  it('starts full: a new tenant may send `burst` requests at once', () => {
    let bucket: { tokens: number; atMs: number } | undefined;
    for (let n = 0; n < 3; n++) {
      const result = take(bucket, policy, 1_000);
      expect(result.allowed).toBe(true);
      if (result.allowed) bucket = result.next;
    }
    expect(take(bucket, policy, 1_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the rate, never above the burst', () => {
    expect(take({ tokens: 0, atMs: 0 }, policy, 500)).toEqual({ allowed: true, next: { tokens: 0, atMs: 500 } });
    expect(take({ tokens: 0, atMs: 0 }, policy, 60_000)).toEqual({ allowed: true, next: { tokens: 2, atMs: 60_000 } });
  });

  it('says how long until a token is back (Retry-After, whole seconds, at least 1)', () => {
    expect(take({ tokens: 0, atMs: 0 }, { ratePerSecond: 0.1, burst: 1 }, 1_000)).toEqual({
      allowed: false,
      retryAfterSeconds: 9,
    });
    expect(take({ tokens: 0.9, atMs: 0 }, policy, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('is not fooled by a clock that goes backwards', () => {
    expect(take({ tokens: 0, atMs: 5_000 }, policy, 4_000).allowed).toBe(false);
  });
});
