import type { Hit } from '#domain/screening-match';
import { planRecording, screenedSide } from '#domain/screening-review';
import type { StoredPerson } from '#shared/db/persons/index';
import { screeningHits } from '#shared/db/screening-hits/index';
import { metrics } from '#shared/metrics';

/**
 * Records one screening of a person for review (docs/api.md#hits-to-review), whichever
 * direction screened it (identification, or a re-screen after the lists changed): every
 * hit is kept with the lists' version it was found on; a hit an operator cleared as a false
 * positive is dropped while neither the person's names and date of birth nor the listing
 * changed. Answers the hits that count: the person's reason codes come from them. Recording
 * the same hit again refreshes it and never resets a decision. A clean screening reads and
 * writes nothing. A hit written meanwhile by another screening or a decision answers
 * `concurrent_update`: screen the person again (callers run in `retryOnConflict`).
 */
export async function recordScreening(
  stored: StoredPerson,
  hits: readonly Hit[],
  listsVersion: number,
  now: Date,
): Promise<Hit[]> {
  if (hits.length === 0) return [];
  const { person } = stored;
  const recorded = await screeningHits().ofPerson(person.tenant, person.id);
  const screening = {
    tenant: person.tenant,
    personId: person.id,
    screened: screenedSide(person),
    listsVersion,
    at: now.toISOString(),
  };
  const { effective, writes } = planRecording(recorded, screening, hits);
  await Promise.all(writes.map((write) => screeningHits().save(write)));
  const found = writes.filter((write) => write.previous === undefined || write.previous.status === 'cleared').length;
  if (found > 0) metrics().count('ScreeningHitFound', found);
  return effective;
}
