import { type Person, statusReason } from '#domain/person';
import { transition } from '#domain/person-lifecycle';
import { matches } from '#domain/screening';
import { persons } from '#shared/db/persons/index';
import { retryOnConflict } from '#shared/db/retry';
import { screeningLists } from '#shared/db/screening/index';
import { now } from '#shared/dependencies';
import type { Logger } from '#shared/logger';

/**
 * Screening again after the sanctions list changed (docs/api.md#screening): only the
 * verified persons whose folded name is that of a sanctions entry are read (the screening
 * index by folded name), never every person; each one matching an entry (and its date of
 * birth when both have one) becomes `restricted` with `matched_watchlist`. Safe to repeat.
 */
export async function rescreenName(nameKey: string, logger: Logger): Promise<{ restricted: number }> {
  const entries = await screeningLists().entriesNamed('sanctions', nameKey);
  if (entries.length === 0) return { restricted: 0 };
  let restricted = 0;
  for (const candidate of await persons().personsNamed(nameKey)) {
    if (candidate.status !== 'verified') continue;
    const changed = await retryOnConflict(
      async () => {
        const stored = await persons().getStored(candidate.tenant, candidate.id);
        if (stored?.person.status !== 'verified') return false;
        if (!entries.some((entry) => matches(stored.person, entry))) return false;
        const status = transition(stored.person.status, 'sanctions_match') as Person['status'];
        await persons().recordStatus(stored, { status, status_reasons: [statusReason('matched_watchlist')] }, now());
        return true;
      },
      { attempts: 5, jitterMs: 20 },
    );
    if (changed) {
      restricted++;
      logger.info('person restricted: sanctions list match', { tenant: candidate.tenant, person_id: candidate.id });
    }
  }
  return { restricted };
}
