import { describe, expect, it } from 'vitest';
import { LEASE_MS, MAX_LEASE, TokenLeases, take } from '#domain/token-bucket';

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

describe('tokens leased per warm container', () => {
  const roomy = { ratePerSecond: 1_000, burst: 1_000 };
  /** A fake clock: each request of the container at the times given (epoch ms). */
  const demands = (leases: TokenLeases, times: number[], policy = roomy) =>
    times.map((at) => leases.demand('tenant-a', policy, at));

  it('takes one token per request for a container serving the tenant once a second (as without leases)', () => {
    expect(demands(new TokenLeases(), [0, 1_000, 2_000, 3_000])).toEqual([1, 1, 1, 1]);
  });

  it('sizes the lease by the requests the container served for the tenant in the last second, this one included', () => {
    expect(demands(new TokenLeases(), [0, 100, 200, 900, 1_150])).toEqual([1, 2, 3, 4, 3]);
  });

  it(`takes at most ${MAX_LEASE} at once however busy the container is`, () => {
    const times = Array.from({ length: 50 }, (_, n) => n * 5);
    expect(Math.max(...demands(new TokenLeases(), times))).toBe(MAX_LEASE);
  });

  it('never asks for more than the tenant’s burst', () => {
    const times = Array.from({ length: 20 }, (_, n) => n);
    expect(Math.max(...demands(new TokenLeases(), times, { ratePerSecond: 1, burst: 3 }))).toBe(3);
  });

  it('counts demand per tenant', () => {
    const leases = new TokenLeases();
    demands(leases, [0, 10, 20]);
    expect(leases.demand('tenant-b', roomy, 30)).toBe(1);
  });

  it('serves the leased tokens from memory, then none', () => {
    const leases = new TokenLeases();
    leases.lease('tenant-a', 2, 0);
    expect([
      leases.useLeased('tenant-a', 10),
      leases.useLeased('tenant-a', 20),
      leases.useLeased('tenant-a', 30),
    ]).toEqual([true, true, false]);
    expect(leases.useLeased('tenant-b', 10)).toBe(false);
  });

  it(`drops leased tokens not used within ${LEASE_MS} ms`, () => {
    const leases = new TokenLeases();
    leases.lease('tenant-a', 5, 0);
    expect(leases.useLeased('tenant-a', LEASE_MS - 1)).toBe(true);
    expect(leases.useLeased('tenant-a', LEASE_MS)).toBe(false);
    // Dropped, not carried into a later lease.
    leases.lease('tenant-a', 1, LEASE_MS + 1);
    expect(leases.useLeased('tenant-a', LEASE_MS + 2)).toBe(true);
    expect(leases.useLeased('tenant-a', LEASE_MS + 3)).toBe(false);
  });

  it('gives tokens added to a live lease that lease’s expiry, so none outlives its second', () => {
    const leases = new TokenLeases();
    leases.lease('tenant-a', 1, 0);
    leases.lease('tenant-a', 3, 900);
    expect(leases.useLeased('tenant-a', 950)).toBe(true);
    expect(leases.useLeased('tenant-a', LEASE_MS)).toBe(false);
  });

  it('takes one at a time for a second after the bucket held fewer tokens than a lease asked', () => {
    const leases = new TokenLeases();
    demands(leases, [0, 10, 20]);
    leases.bucketLow('tenant-a', 20);
    expect(demands(leases, [30, 500, LEASE_MS + 19])).toEqual([1, 1, 1]);
    expect(leases.demand('tenant-a', roomy, LEASE_MS + 20)).toBe(4);
  });
});
