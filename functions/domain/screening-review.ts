import type { Person, ReasonCode } from './person';
import type { Hit, ScreeningList } from './screening-match';

// Hits to review (docs/api.md#hits-to-review): every screening hit is recorded for the
// service's operators, who clear it as a false positive or confirm it. A cleared hit stops
// flagging its person/listing pair for as long as neither side changes: the person's
// screened names and date of birth, and the listing's content (`Hit.listingRevision`).

export const HIT_STATUSES = ['open', 'cleared', 'confirmed'] as const;
export type HitStatus = (typeof HIT_STATUSES)[number];

export const HIT_DECISIONS = ['false_positive', 'confirmed'] as const;
export type HitDecision = (typeof HIT_DECISIONS)[number];

/** The status a decision leaves its hit in. */
export const STATUS_OF_DECISION: Readonly<Record<HitDecision, HitStatus>> = {
  false_positive: 'cleared',
  confirmed: 'confirmed',
};

/** The reason code a hit on each list gives its person. */
export const REASON_OF_LIST: Readonly<Record<ScreeningList, ReasonCode>> = {
  sanctions: 'matched_watchlist',
  alerts: 'matched_alertlist',
};

/** Earlier decisions a reopened hit keeps (each reopening needs a change on one side). */
export const KEPT_DECISIONS = 10;

/** The person's side of a match: what was screened. */
export interface ScreenedSide {
  readonly first_name: string;
  readonly middle_name?: string;
  readonly last_name: string;
  readonly date_of_birth?: string;
}

/** Who decided a hit, how and when. */
export interface HitDecisionRecord {
  readonly decision: HitDecision;
  /** The deciding token's client id. */
  readonly decided_by: string;
  readonly decided_at: string;
  readonly note?: string;
}

/** A hit as recorded for review: the match, the person side it was found on, and its decision. */
export interface HitRecord {
  readonly tenant: string;
  readonly personId: string;
  readonly hit: Hit;
  readonly status: HitStatus;
  readonly screened: ScreenedSide;
  /** The lists' version of the latest screening that found it. */
  readonly listsVersion: number;
  /** When it was found (again, after a change reopened it). */
  readonly foundAt: string;
  /** The latest screening that found it. */
  readonly screenedAt: string;
  readonly decision?: HitDecisionRecord;
  /** Decisions a change of either side has since reopened, oldest first. */
  readonly earlierDecisions: readonly HitDecisionRecord[];
  readonly version: number;
}

/** The person's side as screened (names and date of birth, nothing else). */
export const screenedSide = (person: ScreenedSide): ScreenedSide => ({
  first_name: person.first_name,
  ...(person.middle_name !== undefined && { middle_name: person.middle_name }),
  last_name: person.last_name,
  ...(person.date_of_birth !== undefined && { date_of_birth: person.date_of_birth }),
});

export const sameSide = (a: ScreenedSide, b: ScreenedSide): boolean =>
  a.first_name === b.first_name &&
  a.middle_name === b.middle_name &&
  a.last_name === b.last_name &&
  a.date_of_birth === b.date_of_birth;

/** One (list, entry) pair of a person: a hit record's identity. */
export const hitKey = (hit: Pick<Hit, 'list' | 'entryId'>): string => `${hit.list}#${hit.entryId}`;

/** Whether a recorded decision still holds for this match: cleared, and neither side changed since. */
export const isSuppressed = (record: HitRecord, screened: ScreenedSide, hit: Hit): boolean =>
  record.status === 'cleared' &&
  sameSide(record.screened, screened) &&
  record.hit.listingRevision === hit.listingRevision;

/** A write a screening asks for: the record as it becomes, over the one read (none: a new hit). */
export interface HitWrite {
  readonly next: HitRecord;
  readonly previous?: HitRecord;
}

export interface Screening {
  readonly tenant: string;
  readonly personId: string;
  readonly screened: ScreenedSide;
  readonly listsVersion: number;
  readonly at: string;
}

/**
 * What recording one screening's hits does, given the person's recorded hits: a hit a
 * standing clearance suppresses is dropped (and not written); a new one is recorded open;
 * an open one is refreshed; a cleared one whose person or listing changed is open again (its
 * decision kept among the earlier ones); a confirmed one stays confirmed. `effective` is what
 * the person's reason codes come from.
 */
export function planRecording(
  recorded: readonly HitRecord[],
  screening: Screening,
  hits: readonly Hit[],
): { effective: Hit[]; writes: HitWrite[] } {
  const byKey = new Map(recorded.map((record) => [hitKey(record.hit), record]));
  const effective: Hit[] = [];
  const writes: HitWrite[] = [];
  for (const hit of hits) {
    const previous = byKey.get(hitKey(hit));
    if (previous && isSuppressed(previous, screening.screened, hit)) continue;
    effective.push(hit);
    writes.push({ next: nextRecord(previous, screening, hit), previous });
  }
  return { effective, writes };
}

function nextRecord(previous: HitRecord | undefined, screening: Screening, hit: Hit): HitRecord {
  const seen = { listsVersion: screening.listsVersion, screenedAt: screening.at };
  if (previous?.status === 'confirmed') return { ...previous, ...seen };
  const found = {
    tenant: screening.tenant,
    personId: screening.personId,
    hit,
    status: 'open' as const,
    screened: screening.screened,
    ...seen,
  };
  if (previous?.status === 'open') return { ...previous, ...found };
  if (previous?.status === 'cleared') {
    const { decision: _reopened, ...rest } = previous;
    return {
      ...rest,
      ...found,
      foundAt: screening.at,
      earlierDecisions: [...previous.earlierDecisions, ...(previous.decision ? [previous.decision] : [])].slice(
        -KEPT_DECISIONS,
      ),
    };
  }
  return { ...found, foundAt: screening.at, earlierDecisions: [], version: 0 };
}

/** A hit that still holds its person: open or confirmed. */
export const holdsPerson = (record: Pick<HitRecord, 'status'>): boolean => record.status !== 'cleared';

const SCREENING_REASONS: readonly ReasonCode[] = Object.values(REASON_OF_LIST);

/**
 * Whether clearing a hit lifts the person's hold (`screening_cleared`): the person is
 * restricted or rejected for screening reasons alone, and no other hit still holds it.
 */
export function clearingLiftsHold(
  person: Pick<Person, 'status' | 'status_reasons'>,
  othersHolding: readonly Pick<HitRecord, 'status'>[],
): boolean {
  if (person.status !== 'restricted' && person.status !== 'rejected') return false;
  const reasons = person.status_reasons ?? [];
  return (
    reasons.length > 0 &&
    reasons.every((reason) => SCREENING_REASONS.includes(reason.reason_code)) &&
    !othersHolding.some(holdsPerson)
  );
}
