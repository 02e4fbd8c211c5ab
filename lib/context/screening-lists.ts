import type { Construct } from 'constructs';
import { httpsUrl, OFAC_LISTS_URL } from '#functions/screening/download-lists';

/**
 * The CDK context keys of the daily refresh of the screening lists
 * (docs/deploy.md#context-keys). Values given on the command line arrive as strings,
 * values in cdk.json as JSON, so both are accepted.
 */
export const SCREENING_LISTS_CONTEXT = {
  url: 'screeningListsUrl',
  maxDropPercent: 'screeningListsMaxDropPercent',
} as const;

/** Where the refresh downloads OFAC's files and how much one refresh may take off. */
export interface ScreeningListsSettings {
  /**
   * Base URL of OFAC's list files (`SCREENING_LISTS_URL`): HTTPS only.
   * @default OFAC_LISTS_URL, OFAC's Sanctions List Service
   */
  readonly url: string;
  /**
   * The most of a source's listed persons one refresh may take off, in percent
   * (`SCREENING_LISTS_MAX_DROP_PERCENT`).
   * @default - unset: the function's own default, 5
   */
  readonly maxDropPercent?: number;
}

/** Reads and validates the screening lists' context; throws with the key's name on bad input. */
export function screeningListsSettingsFromContext(scope: Construct): ScreeningListsSettings {
  const url = scope.node.tryGetContext(SCREENING_LISTS_CONTEXT.url);
  const percent = scope.node.tryGetContext(SCREENING_LISTS_CONTEXT.maxDropPercent);
  return {
    url: isUnset(url) ? OFAC_LISTS_URL : listsUrl(url),
    maxDropPercent: isUnset(percent) ? undefined : maxDropPercent(percent),
  };
}

function listsUrl(value: unknown): string {
  const url = httpsUrl(value);
  if (!url) {
    throw new Error(`context "${SCREENING_LISTS_CONTEXT.url}" must be an https:// URL; got ${JSON.stringify(value)}`);
  }
  return url.href;
}

function maxDropPercent(value: unknown): number {
  const percent = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof percent !== 'number' || !Number.isFinite(percent) || percent <= 0 || percent > 100) {
    throw new Error(
      `context "${SCREENING_LISTS_CONTEXT.maxDropPercent}" must be a percentage above 0, at most 100; got ${JSON.stringify(value)}`,
    );
  }
  return percent;
}

const isUnset = (value: unknown): boolean => value === undefined || value === null || value === '';
