// The names of the service's metrics, dependency-free so the CDK stack's alarms and
// dashboard (lib/constructs/app-metrics.ts) and the functions (./metrics.ts) share them.

/**
 * The service's CloudWatch metrics, written as Embedded Metric Format lines by Powertools
 * for AWS Lambda's Metrics (./metrics.ts). The alarms of the CDK stack are built on these names: a name
 * here is a contract, and the only dimension is Powertools' default `service`. A
 * breakdown (an outcome, a status) goes into the line's metadata, never into a dimension
 * or a name of its own.
 */
export const COUNT_METRICS = [
  /** A verify account was created (POST /verify/accounts). */
  'VerificationCreated',
  /** The verification worker settled an account: its verification status left `pending`. */
  'VerificationSettled',
  /** A statement credit was returned by the holder's bank, or rejected by the bank provider: control canceled. */
  'StatementCreditReturned',
  /** A signed bank notice about nothing of this service's (another object, a category it does not read): answered 200, nothing applied. */
  'BankNoticeIgnored',
  /** A person's status changed (identified, rejected, restricted, closed, back to created). */
  'PersonStatusChanged',
  /** An identification run ended with its outcome stored (verified or rejected). */
  'IdentificationCompleted',
  /** The identity vendor's check was found unfinished: its id kept, the person left `created` until its answer. */
  'IdentityCheckPending',
  /** The identity vendor's check was still unfinished at the last look: the person stays `created` (a reviewer's turn). */
  'IdentityCheckStalled',
  /** A signed identity vendor notice about nothing of this service's: answered 200, nothing queued. */
  'IdentityNoticeIgnored',
  /** A hit found by screening was recorded for review (found anew, or reopened by a change). */
  'ScreeningHitFound',
  /** An operator decided a screening hit (a false positive or confirmed; which, in the metadata). */
  'ScreeningHitDecided',
  /** A webhook delivery attempt was answered 2xx. */
  'WebhookDeliverySucceeded',
  /** A webhook delivery attempt failed (one per failed attempt, retried or not). */
  'WebhookDeliveryFailed',
  /** A webhook delivery gave up after its last attempt. */
  'WebhookDeliveryExhausted',
  /** An `Idempotency-Key` request was answered from its stored response. */
  'IdempotentReplay',
  /** A refresh of the screening lists passed its checks and wrote what changed (nothing, when nothing did). */
  'ScreeningListsRefreshed',
  /** A refresh of the screening lists failed: not downloaded, malformed, refused by its checks, or not written. */
  'ScreeningListsRefreshFailed',
] as const;

/** Durations in milliseconds. */
export const LATENCY_METRICS = [
  /** One webhook delivery attempt's HTTP round trip. */
  'WebhookDeliveryLatency',
] as const;

export type CountMetric = (typeof COUNT_METRICS)[number];
export type LatencyMetric = (typeof LATENCY_METRICS)[number];

/** The CloudWatch namespace of the service's metrics, unless `POWERTOOLS_METRICS_NAMESPACE` says otherwise. */
export const DEFAULT_NAMESPACE = 'VerifyService';

/** The one dimension of every metric: Powertools' `service` (`POWERTOOLS_SERVICE_NAME`). */
export const METRICS_DIMENSION = 'service';
