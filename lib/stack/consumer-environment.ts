import type { IdentificationSettings } from '#lib/context/identification';
import type { ScreeningListsSettings } from '#lib/context/screening-lists';
import { STREAM_ROUTER } from '#lib/service/index';
import { ENV } from '#shared/config';

// The deployment settings (CDK context) that only some consumers' code reads, by consumer
// (EventPipelineProps.consumerEnvironment): the consumer rows stay free of deployment values.

/** The consumer whose code reads the tenant's KYC mode (`kycModeOf`), hence `DEFAULT_KYC_MODE`. */
export const KYC_MODE_READER = 'IdentificationWorker';
/** The consumer that refreshes the screening lists from OFAC, hence `SCREENING_LISTS_URL` and its alarms. */
export const LISTS_REFRESHER = 'ListsRefresh';
/**
 * The consumers whose code scores persons against the held lists (identification, and the
 * re-screen of a list change or the daily sweep), hence `SCREENING_THRESHOLD`: both
 * directions match at the same score (test/infra/context/identification.test.ts derives
 * this set from the handlers' imports).
 */
export const SCREENERS = ['IdentificationWorker', 'ScreeningWorker'] as const;

/** Each setting goes to the one function whose code reads it (functions/shared/config.ts). */
export function consumerEnvironment(
  identification: IdentificationSettings,
  screeningLists: ScreeningListsSettings,
): Record<string, Record<string, string>> {
  const threshold: Record<string, string> =
    identification.screeningThreshold === undefined
      ? {}
      : { [ENV.screeningThreshold]: String(identification.screeningThreshold) };
  const screeners = Object.fromEntries(SCREENERS.map((id) => [id, threshold]));
  return {
    ...screeners,
    [KYC_MODE_READER]: {
      [ENV.defaultKycMode]: identification.defaultKycMode ?? 'service',
      ...threshold,
    },
    [LISTS_REFRESHER]: {
      [ENV.screeningListsUrl]: screeningLists.url,
      ...(screeningLists.maxDropPercent !== undefined && {
        [ENV.screeningListsMaxDropPercent]: String(screeningLists.maxDropPercent),
      }),
    },
    // The stream rule schedules the retry: it sends the delayed identification message.
    ...(identification.retryDelaySeconds !== undefined && {
      [STREAM_ROUTER.id]: { [ENV.identificationRetryDelay]: String(identification.retryDelaySeconds) },
    }),
  };
}
