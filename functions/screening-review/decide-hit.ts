import type { Person } from '#domain/person';
import { identificationNeedsSsn, transition } from '#domain/person-lifecycle';
import {
  clearingLiftsHold,
  type HitDecision,
  type HitRecord,
  hitKey,
  STATUS_OF_DECISION,
} from '#domain/screening-review';
import { type PersonChange, persons } from '#shared/db/persons/index';
import { retryOnConflict } from '#shared/db/retry';
import { type HitAddress, screeningHits, type TransactUpdate } from '#shared/db/screening-hits/index';
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
 * its usual event follows. A confirmation keeps the person as it is. A hit is decided once:
 * again, `409 screening_hit_decided`.
 */
export function decideHit(address: HitAddress, decision: Decision): Promise<HitRecord> {
  return retryOnConflict(
    async () => {
      const open = await screeningHits().get(address);
      if (!open) throw new NotFoundError('unknown_id_screening_hit', 'no screening hit has this id');
      if (open.status !== 'open') throw decidedAlready(open);
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
      const lift = decision.decision === 'false_positive' ? await liftOf(open, at) : undefined;
      const saved = await screeningHits().decide(open, decided, lift);
      metrics().count('ScreeningHitDecided');
      metrics().metadata('screening_decision', decision.decision);
      if (lift) metrics().count('PersonStatusChanged');
      return saved;
    },
    { attempts: 5, jitterMs: 20 },
  );
}

/** The person's versioned write lifting its hold, when clearing this hit lifts it. */
async function liftOf(open: HitRecord, at: Date): Promise<TransactUpdate | undefined> {
  const [stored, recorded] = await Promise.all([
    persons().getStored(open.tenant, open.personId),
    screeningHits().ofPerson(open.tenant, open.personId),
  ]);
  if (!stored) return undefined;
  const others = recorded.filter((record) => hitKey(record.hit) !== hitKey(open.hit));
  if (!clearingLiftsHold(stored.person, others)) return undefined;
  const status = transition(stored.person.status, 'screening_cleared') as Person['status'];
  const change = {
    set: { status },
    remove: ['status_reasons'],
    // A verified person's outcome is final: its SSN is no longer kept (as identification does).
    ...(!identificationNeedsSsn({ status, identification_attempts: stored.person.identification_attempts }) && {
      ssnSecret: null,
    }),
  } satisfies PersonChange;
  return persons().updateInput(stored, change, at);
}

const decidedAlready = (hit: HitRecord) =>
  new ConflictError('screening_hit_decided', `the hit was decided already (${hit.status}); a hit is decided once`, {
    status: hit.status,
    ...(hit.decision && { decided_by: hit.decision.decided_by, decided_at: hit.decision.decided_at }),
  });
