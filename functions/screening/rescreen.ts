import { type Person, statusReason } from '#domain/person';
import { transition } from '#domain/person-lifecycle';
import type { ScreeningIndex } from '#domain/screening-index';
import { planScreening, storeScreening } from '#functions/screening-review/record-screening';
import { type PersonRef, persons, screeningWalk } from '#shared/db/persons/index';
import { SCREENING_SHARDS } from '#shared/db/persons/item';
import { retryOnConflict } from '#shared/db/retry';
import { heldLists, screeningIndexOf } from '#shared/db/screening/held-lists';
import { screeningListings } from '#shared/db/screening/index';
import type { ListingRef } from '#shared/db/screening/listings';
import { now } from '#shared/dependencies';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';
import { actingFor } from '#shared/tenant-scope';
import type { ScreeningMessage } from './screening-message';

// Screening again after the lists changed, and every day (docs/api.md#screening): the
// verified and restricted persons of every tenant are walked shard by shard and each is
// scored by the same matcher identification uses, against the listings the change added or changed (or
// the whole lists, daily). A person it now matches becomes `restricted` with
// `matched_watchlist`. Safe to repeat: a restricted person is not verified any more.

/** Pages of 100 persons one message walks before it hands the rest of its shard on. */
export const PAGES_PER_MESSAGE = 20;

/** The sanctions listings a re-screen scores against, and the lists' version they are of (kept on each hit). */
export interface RescreenLists {
  readonly sanctions: ScreeningIndex;
  readonly version: number;
}

/**
 * What a re-screen message screens against: the sanctions listings its change put (none
 * when the change is gone or put alert listings only), or the whole sanctions list held
 * in memory (daily, or a change too large to name its listings).
 */
export async function sanctionsFor(message: ScreeningMessage): Promise<RescreenLists | undefined> {
  if (message.kind === 'daily') return heldLists();
  const change = await screeningListings().change(message.change_id);
  if (!change) return undefined;
  if (change.all) return heldLists();
  return changedSanctions(change.listings);
}

/** The sanctions listings of `refs` indexed, with the lists' version; none when there is none. */
export async function changedSanctions(refs: readonly ListingRef[]): Promise<RescreenLists | undefined> {
  const [listings, version] = await Promise.all([
    screeningListings().get(refs.filter((ref) => ref.list === 'sanctions')),
    screeningListings().version(),
  ]);
  return listings.length > 0 ? { sanctions: screeningIndexOf(listings), version } : undefined;
}

/**
 * Walks up to `pages` pages of one shard's verified and restricted persons after `after`, restricting
 * each one `sanctions` matches. `next`: where the walk goes on, none at the shard's end.
 */
export async function rescreenShard(
  lists: RescreenLists,
  walk: { shard: number; after?: PersonRef; pages: number },
  logger: Logger,
): Promise<RescreenOutcome & { next?: PersonRef }> {
  const outcome = { restricted: 0, matching: 0, screened: 0 };
  let after = walk.after;
  for (let page = 0; page < walk.pages; page++) {
    const found = await screeningWalk().page(walk.shard, after);
    for (const person of found.persons) {
      outcome.screened++;
      if (lists.sanctions.screen(person).length === 0) continue;
      // The walk spans tenants; each person is screened again acting for its own.
      const result = await actingFor(person.tenant, () => restrict(person, lists));
      if (result === 'no_match') continue;
      outcome.matching++;
      if (result === 'restricted') {
        outcome.restricted++;
        logger.info('person restricted: sanctions list match', { tenant: person.tenant, person_id: person.id });
      }
    }
    after = found.next;
    if (!after) return outcome;
  }
  return { ...outcome, next: after };
}

/** Every shard walked to its end (the local admin route's list change, small tables only). */
export async function rescreenEverywhere(lists: RescreenLists, logger: Logger): Promise<RescreenOutcome> {
  const total = { restricted: 0, matching: 0, screened: 0 };
  for (let shard = 0; shard < SCREENING_SHARDS; shard++) {
    let after: PersonRef | undefined;
    do {
      const outcome = await rescreenShard(lists, { shard, after, pages: PAGES_PER_MESSAGE }, logger);
      total.restricted += outcome.restricted;
      total.matching += outcome.matching;
      total.screened += outcome.screened;
      after = outcome.next;
    } while (after);
  }
  return total;
}

/**
 * The person as stored now, screened again and its hits recorded for review (a hit an
 * operator cleared on an unchanged person and listing counts no more), restricted when a
 * hit counts and it is verified: the hits and the restriction in one write, on condition
 * that neither the person nor its hits changed since they were read (a decision taken
 * meanwhile makes it screen again, #functions/screening-review/record-screening).
 */
async function restrict(person: Person, lists: RescreenLists) {
  return retryOnConflict(
    async () => {
      const stored = await persons().getStored(person.tenant, person.id);
      if (!stored || (stored.person.status !== 'verified' && stored.person.status !== 'restricted')) return 'no_match';
      const planned = await planScreening(stored, lists.sanctions.screen(stored.person), lists.version, now());
      if (planned.effective.length === 0) return 'no_match';
      if (stored.person.status === 'restricted') {
        await storeScreening(stored, planned, undefined, now());
        return 'already_restricted';
      }
      const status = transition(stored.person.status, 'sanctions_match') as Person['status'];
      await storeScreening(
        stored,
        planned,
        { set: { status, status_reasons: [statusReason('matched_watchlist')] } },
        now(),
      );
      metrics().count('PersonStatusChanged');
      return 'restricted';
    },
    { attempts: 5, jitterMs: 20 },
  );
}

/**
 * `restricted`: persons this call moved to `restricted`; `matching`: persons matching who
 * are `restricted` now, whoever restricted them (the pipeline's re-screen of a change runs
 * concurrently with the local admin route, so only this count is stable for a caller);
 * `screened`: persons scored.
 */
export interface RescreenOutcome {
  restricted: number;
  matching: number;
  screened: number;
}
