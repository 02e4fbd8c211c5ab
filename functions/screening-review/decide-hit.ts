import type { Person } from '#domain/person';
import { identificationNeedsSsn, transition } from '#domain/person-lifecycle';
import {
  clearingLiftsHold,
  type HitDecision,
  type HitRecord,
  hitKey,
  STATUS_OF_DECISION,
} from '#domain/screening-review';
import { type HitsChange, persons, type StoredPerson } from '#shared/db/persons/index';
import { retryOnConflict } from '#shared/db/retry';
import { type HitAddress, screeningHits } from '#shared/db/screening-hits/index';
import { now } from '#shared/dependencies';
import { ConflictError, NotFoundError } from '#shared/errors';
import { metrics } from '#shared/metrics';

export interface Decision {
  decision: HitDecision;
  /** The deciding token's client id. */
  by: string;
  note?: string;
}

/**
 * An operator's decision on an open hit (docs/api.md#hits-to-review), kept with who took it
 * and when. A false positive clears the hit; when screening alone held its person
 * (restricted, or rejected for screening reasons only) and no other hit still holds it,
 * the person becomes `verified` in the same transaction, through its versioned write, so
 * its usual event follows. A confirmation keeps the person as it is. Either way the
 * transaction moves the person's hits revision, on condition that neither the person nor
 * its hits changed since they were read: a hit recorded or decided meanwhile makes the
 * decision be taken again on a fresh read, which counts it. A hit is decided once: again,
 * `409 screening_hit_decided`.
 */
export function decideHit(address: HitAddress, decision: Decision): Promise<HitRecord> {
  return retryOnConflict(
    async () => {
      const open = await screeningHits().get(address);
      if (!open) throw new NotFoundError('unknown_id_screening_hit', 'no screening hit has this id');
      if (open.status !== 'open') throw decidedAlready(open);
      // The person before its hits: a hit written after that read has moved its hits revision.
      const stored = await persons().getStored(open.tenant, open.personId);
      const at = now();
      const decided: HitRecord = {
        ...open,
        status: STATUS_OF_DECISION[decision.decision],
        decision: {
          decision: decision.decision,
          decided_by: decision.by,
          decided_at: at.toISOString(),
          ...(decision.note !== undefined && { note: decision.note }),
        },
      };
      const lift = stored && decision.decision === 'false_positive' ? await liftOf(stored, open) : undefined;
      const saved = await screeningHits().decide(open, decided, stored && persons().hitsUpdateInput(stored, at, lift));
      metrics().count('ScreeningHitDecided');
      metrics().metadata('screening_decision', decision.decision);
      if (lift) metrics().count('PersonStatusChanged');
      return saved;
    },
    { attempts: 5, jitterMs: 20 },
  );
}

/** The person's change lifting its hold, when clearing this hit lifts it (no other hit holds it). */
async function liftOf(stored: StoredPerson, open: HitRecord): Promise<HitsChange | undefined> {
  const recorded = await screeningHits().ofPerson(open.tenant, open.personId);
  const others = recorded.filter((record) => hitKey(record.hit) !== hitKey(open.hit));
  if (!clearingLiftsHold(stored.person, others)) return undefined;
  const status = transition(stored.person.status, 'screening_cleared') as Person['status'];
  return {
    set: { status },
    remove: ['status_reasons'],
    // A verified person's outcome is final: its SSN is no longer kept (as identification does).
    ...(!identificationNeedsSsn({ status, identification_attempts: stored.person.identification_attempts }) && {
      ssnSecret: null,
    }),
  };
}

const decidedAlready = (hit: HitRecord) =>
  new ConflictError('screening_hit_decided', `the hit was decided already (${hit.status}); a hit is decided once`, {
    status: hit.status,
    ...(hit.decision && { decided_by: hit.decision.decided_by, decided_at: hit.decision.decided_at }),
  });
