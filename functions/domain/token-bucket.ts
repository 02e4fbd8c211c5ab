// Per-tenant fairness (docs/api.md#rate-limits): a token bucket of `burst` tokens that
// refills at `ratePerSecond`; every request uses one, which a busy container may have
// leased with others in one write (`TokenLeases`). Pure, so the arithmetic is tested
// without a table; the bucket's state is stored per tenant.

export interface BucketPolicy {
  ratePerSecond: number;
  burst: number;
}

export interface Bucket {
  tokens: number;
  /** When `tokens` was last computed (epoch ms). */
  atMs: number;
}

export type Take = { allowed: true; next: Bucket } | { allowed: false; retryAfterSeconds: number };

/** Takes one token at `nowMs`: allowed with the bucket to store, or refused with the wait until a token is back. */
export function take(bucket: Bucket | undefined, policy: BucketPolicy, nowMs: number): Take {
  const elapsed = bucket ? Math.max(0, nowMs - bucket.atMs) / 1000 : Number.POSITIVE_INFINITY;
  const tokens = Math.min(policy.burst, (bucket?.tokens ?? policy.burst) + elapsed * policy.ratePerSecond);
  if (tokens >= 1) return { allowed: true, next: { tokens: tokens - 1, atMs: nowMs } };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / policy.ratePerSecond)) };
}

/** A policy a tenant's settings may give: positive rate, burst of at least one request. */
export const isBucketPolicy = (value: unknown): value is BucketPolicy => {
  const policy = value as Partial<BucketPolicy> | undefined;
  return (
    typeof policy?.ratePerSecond === 'number' &&
    policy.ratePerSecond > 0 &&
    typeof policy.burst === 'number' &&
    policy.burst >= 1
  );
};

/** How long a container keeps tokens it leased: unused ones are dropped then, never carried. */
export const LEASE_MS = 1_000;

/** The most tokens a container takes from a tenant's bucket in one write. */
export const MAX_LEASE = 10;

interface TenantLeases {
  /** When this container last served the tenant's requests, newest last, at most MAX_LEASE. */
  served: number[];
  /** Tokens taken from the bucket and not used yet. */
  tokens: number;
  /** When those tokens are dropped (epoch ms). */
  expiresAtMs: number;
  /** Until when a lease is not tried: the bucket had fewer tokens than asked. */
  lowUntilMs: number;
}

/**
 * One warm container's leases of its tenants' tokens (docs/api.md#rate-limits). A busy
 * container takes k tokens from the bucket in one write and serves the next k-1 requests
 * from memory. k is the container's own demand for the tenant: the requests it served for
 * it in the last second, this one included, at most MAX_LEASE and never above the burst. So
 * a container serving a tenant once a second takes one token per request, as without
 * leases, and one serving it often takes up to ten at once. Leased tokens live one second:
 * tokens are only ever taken from the bucket, never minted here, so the long-run rate stays
 * the bucket's. Pure: the clock is passed in.
 */
export class TokenLeases {
  private readonly tenants = new Map<string, TenantLeases>();

  /** Counts a request of `tenant` at `nowMs`; answers how many tokens to take for it. */
  demand(tenant: string, policy: BucketPolicy, nowMs: number): number {
    const state = this.stateOf(tenant);
    state.served.push(nowMs);
    if (state.served.length > MAX_LEASE) state.served.shift();
    if (nowMs < state.lowUntilMs) return 1;
    const recent = state.served.filter((at) => at > nowMs - LEASE_MS && at <= nowMs).length;
    return Math.max(1, Math.min(recent, MAX_LEASE, Math.floor(policy.burst)));
  }

  /** Serves a request from the tenant's lease: true when a leased token was still live. */
  useLeased(tenant: string, nowMs: number): boolean {
    const state = this.tenants.get(tenant);
    if (!state || state.tokens < 1 || nowMs >= state.expiresAtMs) return false;
    state.tokens -= 1;
    return true;
  }

  /**
   * Keeps `tokens` just taken for later requests, until `nowMs + LEASE_MS`. Added to a live
   * lease they share its earlier expiry, so no token outlives the second it was taken in.
   */
  lease(tenant: string, tokens: number, nowMs: number): void {
    const state = this.stateOf(tenant);
    const live = state.tokens >= 1 && nowMs < state.expiresAtMs;
    state.tokens = (live ? state.tokens : 0) + tokens;
    state.expiresAtMs = live ? state.expiresAtMs : nowMs + LEASE_MS;
  }

  /**
   * The bucket held fewer tokens than a lease asked: take one at a time for a second, so a
   * tenant near its limit does not pay a failed write for every request.
   */
  bucketLow(tenant: string, nowMs: number): void {
    this.stateOf(tenant).lowUntilMs = nowMs + LEASE_MS;
  }

  private stateOf(tenant: string): TenantLeases {
    let state = this.tenants.get(tenant);
    if (!state) {
      state = { served: [], tokens: 0, expiresAtMs: 0, lowUntilMs: 0 };
      this.tenants.set(tenant, state);
    }
    return state;
  }
}
