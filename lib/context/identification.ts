import type { Construct } from 'constructs';
import { KYC_MODES, type KycMode } from '#domain/person';

/**
 * The CDK context keys that configure identification (docs/deploy.md#context-keys).
 * Values given on the command line (`-c kycMode=byo`) arrive as strings, values in
 * cdk.json as JSON, so both are accepted.
 */
export const IDENTIFICATION_CONTEXT = {
  kycMode: 'kycMode',
  retryDelaySeconds: 'identificationRetryDelaySeconds',
  screeningThreshold: 'screeningThreshold',
} as const;

/** The longest delay SQS allows on one message: the retry is a delayed queue message. */
export const MAX_IDENTIFICATION_RETRY_DELAY_SECONDS = 900;

/** Deployment-wide identification settings, handed to the functions that read them. */
export interface IdentificationSettings {
  /**
   * KYC mode of every tenant without a setting of its own (`DEFAULT_KYC_MODE`). A partner's
   * `kycMode` is written as that tenant's own setting instead.
   * @default 'service'
   */
  readonly defaultKycMode?: KycMode;
  /**
   * Seconds before a rejected person's one automatic identification retry
   * (`IDENTIFICATION_RETRY_DELAY_SECONDS`), 0–900.
   * @default - unset: the function's own default, 900
   */
  readonly retryDelaySeconds?: number;
  /**
   * The score (50–100) at or above which a person matches a screening listing
   * (`SCREENING_THRESHOLD`, docs/api.md#screening).
   * @default - unset: the matcher's default, 85
   */
  readonly screeningThreshold?: number;
}

/** Reads and validates the identification context; throws with the key's name on bad input. */
export function identificationSettingsFromContext(scope: Construct): IdentificationSettings {
  const read = (key: string): unknown => scope.node.tryGetContext(key);
  const kycMode = read(IDENTIFICATION_CONTEXT.kycMode);
  const delay = read(IDENTIFICATION_CONTEXT.retryDelaySeconds);
  const threshold = read(IDENTIFICATION_CONTEXT.screeningThreshold);
  return {
    defaultKycMode: isUnset(kycMode) ? 'service' : parseKycMode(kycMode, `context "${IDENTIFICATION_CONTEXT.kycMode}"`),
    retryDelaySeconds: isUnset(delay) ? undefined : retryDelaySeconds(delay),
    screeningThreshold: isUnset(threshold) ? undefined : screeningThreshold(threshold),
  };
}

/** A KYC mode as `functions/domain/person.ts` defines them; `what` names the value in the error. */
export function parseKycMode(value: unknown, what: string): KycMode {
  if (!(KYC_MODES as readonly unknown[]).includes(value)) {
    throw new Error(`${what} must be one of ${KYC_MODES.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as KycMode;
}

/**
 * A whole number of seconds within SQS's message-delay range. The function would fall
 * back to 900 on a bad value; refusing it here keeps a typo from deploying silently.
 */
function retryDelaySeconds(value: unknown): number {
  const seconds = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (
    typeof seconds !== 'number' ||
    !Number.isInteger(seconds) ||
    seconds < 0 ||
    seconds > MAX_IDENTIFICATION_RETRY_DELAY_SECONDS
  ) {
    throw new Error(
      `context "${IDENTIFICATION_CONTEXT.retryDelaySeconds}" must be a whole number of seconds from 0 to ${MAX_IDENTIFICATION_RETRY_DELAY_SECONDS}; got ${JSON.stringify(value)}`,
    );
  }
  return seconds;
}

/** A whole score from 50 to 100: a mistyped threshold would miss or flag every person silently. */
function screeningThreshold(value: unknown): number {
  const score = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 50 || score > 100) {
    throw new Error(
      `context "${IDENTIFICATION_CONTEXT.screeningThreshold}" must be a whole number from 50 to 100; got ${JSON.stringify(value)}`,
    );
  }
  return score;
}

const isUnset = (value: unknown): boolean => value === undefined || value === null || value === '';
