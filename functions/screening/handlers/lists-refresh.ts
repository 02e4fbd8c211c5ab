import * as z from 'zod/mini';
import { DEFAULT_REFRESH_LIMITS } from '#domain/list-refresh-checks';
import { ConfigError, ENV, screeningListsMaxDropPercent, screeningListsSource } from '#shared/config';
import { invocation } from '#shared/invocation';
import { createLogger } from '#shared/logger';
import { metrics } from '#shared/metrics';
import { type RefreshOutcome, refreshLists } from '../refresh-lists';

/**
 * What starts a refresh: the daily schedule's event (whose fields are not read), or an
 * operator's invocation with `{ "force": true }` to write a copy the checks refused
 * (docs/operations.md#screening-lists-refresh-failed).
 */
const refreshRequest = z.looseObject({ force: z.optional(z.boolean()) });

/**
 * Daily, before the daily re-screen: OFAC's lists downloaded (`SCREENING_LISTS_URL`; a
 * folder locally, `SCREENING_LISTS_DIR`), checked, and only what changed written
 * (functions/screening/refresh-lists.ts). Counted either way: `ScreeningListsRefreshed`,
 * or `ScreeningListsRefreshFailed` (alarmed) and the run fails, so Lambda tries it twice more.
 */
export const handler = invocation<unknown, RefreshOutcome>(async (event) => {
  const { force } = refreshRequest.parse(event ?? {});
  const logger = createLogger({ worker: 'lists-refresh' });
  try {
    const source = screeningListsSource();
    if (!source) throw new ConfigError(`neither ${ENV.screeningListsUrl} nor ${ENV.screeningListsDir} is set`);
    const maxDropPercent = screeningListsMaxDropPercent() ?? DEFAULT_REFRESH_LIMITS.maxDropPercent;
    const outcome = await refreshLists(source, { force, limits: { ...DEFAULT_REFRESH_LIMITS, maxDropPercent } });
    metrics().count('ScreeningListsRefreshed');
    logger.info(outcome.changeId ? 'screening lists refreshed' : 'screening lists unchanged', {
      ...outcome,
      forced: force === true,
    });
    return outcome;
  } catch (error) {
    metrics().count('ScreeningListsRefreshFailed');
    metrics().metadata('failure', error instanceof Error ? error.name : 'unknown');
    logger.error('screening lists not refreshed', { error });
    throw error;
  }
});
