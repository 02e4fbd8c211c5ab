import type { Construct } from 'constructs';

/**
 * The CDK context keys that set the API's request limits (see docs/operations.md,
 * "Request limits"). Values given on the command line (`-c apiThrottleRate=200`) arrive as
 * strings, values in cdk.json as JSON numbers, so both are accepted.
 */
export const API_LIMITS_CONTEXT = {
  /** Steady requests per second of the whole API (`$default` stage), all tenants together. */
  throttleRate: 'apiThrottleRate',
  /** Requests the whole API accepts at once. */
  throttleBurst: 'apiThrottleBurst',
  /** Steady requests per second of one tenant without a rate of its own. */
  tenantRatePerSecond: 'tenantRatePerSecond',
  /** Requests one tenant without a burst of its own may make at once. */
  tenantBurst: 'tenantBurst',
} as const;

/** What the stage and the tenants' token buckets default to: the numbers the functions also fall back to. */
export const API_LIMIT_DEFAULTS = {
  throttleRate: 50,
  throttleBurst: 100,
  tenantRatePerSecond: 50,
  tenantBurst: 100,
} as const;

/** A rate (requests per second) and a burst (requests at once). */
export interface RequestLimit {
  /** Positive, fractions allowed (API Gateway and the token bucket both take them). */
  readonly ratePerSecond: number;
  /** A whole number, at least 1. */
  readonly burst: number;
}

/** The API's request limits: the stage's, and each tenant's default. */
export interface ApiLimits {
  readonly stage: RequestLimit;
  readonly tenant: RequestLimit;
}

/**
 * Reads the four context keys; an unset key takes its default (`API_LIMIT_DEFAULTS`).
 * Throws, naming the key, on anything but a positive number (rates) or a whole number of
 * at least 1 (bursts): a typo must not deploy an API that refuses everyone or no one.
 */
export function apiLimitsFromContext(scope: Construct): ApiLimits {
  const limit = (rateKey: keyof typeof API_LIMITS_CONTEXT, burstKey: keyof typeof API_LIMITS_CONTEXT) => {
    const [rateName, burstName] = [API_LIMITS_CONTEXT[rateKey], API_LIMITS_CONTEXT[burstKey]];
    return {
      ratePerSecond: rate(scope.node.tryGetContext(rateName), `context "${rateName}"`) ?? API_LIMIT_DEFAULTS[rateKey],
      burst: burst(scope.node.tryGetContext(burstName), `context "${burstName}"`) ?? API_LIMIT_DEFAULTS[burstKey],
    };
  };
  return { stage: limit('throttleRate', 'throttleBurst'), tenant: limit('tenantRatePerSecond', 'tenantBurst') };
}

/** A positive finite number of requests per second, or undefined when unset; `key` names it in the error. */
export function rate(value: unknown, key: string): number | undefined {
  const number = numberOf(value);
  if (number === undefined) return undefined;
  if (!Number.isFinite(number) || number <= 0) {
    throw new Error(`${key} must be a positive number of requests per second; got ${JSON.stringify(value)}`);
  }
  return number;
}

/** A whole number of requests, at least 1, or undefined when unset; `key` names it in the error. */
export function burst(value: unknown, key: string): number | undefined {
  const number = numberOf(value);
  if (number === undefined) return undefined;
  if (!Number.isInteger(number) || number < 1) {
    throw new Error(`${key} must be a whole number of requests, at least 1; got ${JSON.stringify(value)}`);
  }
  return number;
}

/** A JSON number, a numeric string (command line), NaN for anything else, undefined when unset. */
function numberOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return Number.NaN;
}
