import { type Person, statusReason } from '#domain/person';
import { transition } from '#domain/person-lifecycle';
import { matches } from '#domain/screening';
import { persons } from '#shared/db/persons/index';
import { retryOnConflict } from '#shared/db/retry';
import { screeningLists } from '#shared/db/screening/index';
import { now } from '#shared/dependencies';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';

/**
 * Screening again after the sanctions list changed (docs/api.md#screening): only the
 * verified persons whose folded name is that of a sanctions entry are read (the screening
 * index by folded name), never every person; each one matching an entry (and its date of
 * birth when both have one) becomes `restricted` with `matched_watchlist`. Safe to repeat.
 */
export async function rescreenName(nameKey: string, logger: Logger): Promise<RescreenOutcome> {
  const entries = await screeningLists().entriesNamed('sanctions', nameKey);
  const outcome = { restricted: 0, matching: 0 };
  if (entries.length === 0) return outcome;
  for (const candidate of await persons().personsNamed(nameKey)) {
    if (candidate.status !== 'verified' && candidate.status !== 'restricted') continue;
    const result = await retryOnConflict(
      async () => {
        const stored = await persons().getStored(candidate.tenant, candidate.id);
        if (!stored || !entries.some((entry) => matches(stored.person, entry))) return 'no_match';
        if (stored.person.status === 'restricted') return 'already_restricted';
        if (stored.person.status !== 'verified') return 'no_match';
        const status = transition(stored.person.status, 'sanctions_match') as Person['status'];
        await persons().recordStatus(stored, { status, status_reasons: [statusReason('matched_watchlist')] }, now());
        metrics().count('PersonStatusChanged');
        return 'restricted';
      },
      { attempts: 5, jitterMs: 20 },
    );
    if (result === 'no_match') continue;
    outcome.matching++;
    if (result === 'restricted') {
      outcome.restricted++;
      logger.info('person restricted: sanctions list match', { tenant: candidate.tenant, person_id: candidate.id });
    }
  }
  return outcome;
}

/**
 * `restricted`: persons this call moved to `restricted`; `matching`: persons matching an
 * entry of the name who are `restricted` now, whoever restricted them — the list-change
 * re-screen of the pipeline runs concurrently with the local admin route, so only this
 * count is stable for a caller.
 */
export interface RescreenOutcome {
  restricted: number;
  matching: number;
}
