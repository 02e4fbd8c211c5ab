// What the Plaid fake (./fake-plaid.ts) is started with; each has a default.

export interface FakePlaidOptions {
  clientId: string;
  secret: string;
  /** The one Identity Verification template it knows: a KYC check alone. */
  templateId: string;
  /** The fake's clock: `created_at`, `completed_at` and the notices' `iat`. */
  now: () => Date;
  /** How long a KYC check runs (`active`) before its answer; 0: it answers in the create itself. */
  checkDelayMs: number;
  /** How long an IDV held for review (SSN ending 0009) waits before a reviewer passes it. */
  reviewDelayMs: number;
  /** Where STATUS_UPDATED notices go (the runtime's `/identity/notices`); none: no notice is sent. */
  noticeUrl?: string;
  /** Requests a second it answers; more get `429 RATE_LIMIT_EXCEEDED`, as Plaid's per-client limits. */
  rateLimitPerSecond: number;
  log: (message: string) => void;
}

/** The options given, over the defaults: fixed credentials and template, the real clock, answers a second later. */
export function withDefaults(options: Partial<FakePlaidOptions>): FakePlaidOptions {
  return {
    clientId: '0123456789abcdef01234567',
    secret: 'fake-plaid-secret',
    templateId: 'idvtmp_localfake',
    now: () => new Date(),
    checkDelayMs: 1000,
    reviewDelayMs: 3000,
    rateLimitPerSecond: 50,
    log: () => {},
    ...options,
  };
}
