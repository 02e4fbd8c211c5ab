/**
 * Per-tenant fairness (docs/api.md#rate-limits): a token bucket of `burst` tokens that
 * refills at `ratePerSecond`; every request takes one. Pure, so the arithmetic is tested
 * without a table; the bucket's state is stored per tenant.
 */
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
