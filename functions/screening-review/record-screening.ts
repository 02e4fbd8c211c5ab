import type { Hit } from '#domain/screening-match';
import { type HitWrite, planRecording, screenedSide } from '#domain/screening-review';
import { type HitsChange, persons, type StoredPerson } from '#shared/db/persons/index';
import { HITS_PER_WRITE, screeningHits } from '#shared/db/screening-hits/index';
import { metrics } from '#shared/metrics';

/** One screening of a person, planned for review: the hits that count, and what recording them writes. */
export interface PlannedScreening {
  /** The hits that count: the person's reason codes come from them. */
  readonly effective: readonly Hit[];
  readonly writes: readonly HitWrite[];
}

/**
 * Plans recording one screening of a person for review (docs/api.md#hits-to-review),
 * whichever direction screened it (identification, or a re-screen after the lists
 * changed), from the hits recorded for it: every hit is kept with the lists' version it was
 * found on; a hit an operator cleared as a false positive is dropped while neither the
 * person's names and date of birth nor the listing changed. Recording the same hit again
 * refreshes it and never resets a decision. A clean screening reads nothing.
 *
 * `stored` must have been read before this reads the hits (the callers read the person
 * first): a hit written in between then moves the person's hits revision past the one read,
 * and `storeScreening` fails rather than store what was decided on stale hits.
 */
export async function planScreening(
  stored: StoredPerson,
  hits: readonly Hit[],
  listsVersion: number,
  now: Date,
): Promise<PlannedScreening> {
  if (hits.length === 0) return { effective: [], writes: [] };
  const { person } = stored;
  const recorded = await screeningHits().ofPerson(person.tenant, person.id);
  const screening = {
    tenant: person.tenant,
    personId: person.id,
    screened: screenedSide(person),
    listsVersion,
    at: now.toISOString(),
  };
  return planRecording(recorded, screening, hits);
}

/**
 * Stores a planned screening with the person's outcome (`change`, if any): its hits and the
 * person's update in one transaction, on condition that neither the person nor its hits
 * changed since they were read (docs/data-model.md, pattern 24), so a decision taken
 * meanwhile is never overlooked; a screening of more hits than one transaction holds writes
 * them in several, the outcome with the last. Without hits, the outcome is the person's
 * versioned write alone. Anything changed meanwhile answers `concurrent_update`: screen the
 * person again (callers run in `retryOnConflict`).
 */
export async function storeScreening(
  stored: StoredPerson,
  planned: PlannedScreening,
  change: HitsChange | undefined,
  now: Date,
): Promise<void> {
  const { writes } = planned;
  if (writes.length === 0) {
    if (change) await persons().update(stored, change, now);
    return;
  }
  let person = stored;
  for (let start = 0; start < writes.length; start += HITS_PER_WRITE) {
    const last = start + HITS_PER_WRITE >= writes.length;
    const update = persons().hitsUpdateInput(person, now, last ? change : undefined);
    await screeningHits().record(writes.slice(start, start + HITS_PER_WRITE), update);
    person = { ...person, hitsRev: person.hitsRev + 1 };
  }
  const found = writes.filter((write) => write.previous === undefined || write.previous.status === 'cleared').length;
  if (found > 0) metrics().count('ScreeningHitFound', found);
}
