import { describe, expect, it } from 'vitest';
import { PERSON_STATUSES, type PersonStatus } from '#domain/person';
import {
  IDENTIFICATION_RUNS,
  identificationNeedsSsn,
  isRefusal,
  PERSON_TRANSITIONS,
  PERSON_TRIGGERS,
  type PersonTrigger,
  type TransitionOutcome,
  transition,
} from '#domain/person-lifecycle';

const closedRefusal: TransitionOutcome = { refused: 'person_closed' };
const restrictedRefusal: TransitionOutcome = { refused: 'person_restricted' };

// Every cell of the table, written out again here so a change to the table must be made twice.
const cells: [PersonStatus, PersonTrigger, TransitionOutcome, string][] = [
  ['created', 'identified', 'verified', 'identification passes'],
  ['created', 'identification_failed', 'rejected', 'identification fails'],
  ['created', 'sanctions_match', 'created', 'created persons are screened by identification, not restricted'],
  ['created', 'identity_updated', 'created', 'identity data changed: identify again'],
  ['created', 'updated', 'created', 'other fields keep the status'],
  ['created', 'closed', 'closed', 'DELETE closes'],
  ['created', 'screening_cleared', 'created', 'a created person waits for identification'],

  ['verified', 'identified', 'verified', 'a repeated pass changes nothing'],
  ['verified', 'identification_failed', 'verified', 'a late failure does not apply to a verified person'],
  ['verified', 'sanctions_match', 'restricted', 're-screening restricts'],
  ['verified', 'identity_updated', 'created', 'identity data changed: identify again'],
  ['verified', 'updated', 'verified', 'other fields keep the status'],
  ['verified', 'closed', 'closed', 'DELETE closes'],
  ['verified', 'screening_cleared', 'verified', 'nothing held a verified person'],

  ['rejected', 'identified', 'verified', 'the automatic retry passes'],
  ['rejected', 'identification_failed', 'rejected', 'the automatic retry fails again'],
  ['rejected', 'sanctions_match', 'rejected', 'rejected persons are screened by identification, not restricted'],
  ['rejected', 'identity_updated', 'created', 'corrected identity data: identify again'],
  ['rejected', 'updated', 'rejected', 'other fields keep the status'],
  ['rejected', 'closed', 'closed', 'DELETE closes'],
  ['rejected', 'screening_cleared', 'verified', 'rejected for screening alone: the review clears it'],

  ['restricted', 'identified', 'restricted', 'identification never lifts a restriction'],
  ['restricted', 'identification_failed', 'restricted', 'identification does not apply to a restricted person'],
  ['restricted', 'sanctions_match', 'restricted', 'a further match keeps the restriction'],
  ['restricted', 'identity_updated', restrictedRefusal, 'editing identity could re-identify out of the restriction'],
  ['restricted', 'updated', 'restricted', 'other fields keep the status'],
  ['restricted', 'closed', 'closed', 'DELETE closes'],
  ['restricted', 'screening_cleared', 'verified', 'the service lifts its own hold once the hit is a false positive'],

  ['closed', 'identified', 'closed', 'a late identification result never reopens'],
  ['closed', 'identification_failed', 'closed', 'a late identification result never reopens'],
  ['closed', 'sanctions_match', 'closed', 'closed persons are not restricted'],
  ['closed', 'identity_updated', closedRefusal, 'closed is final: 409 person_closed'],
  ['closed', 'updated', closedRefusal, 'closed is final: 409 person_closed'],
  ['closed', 'closed', 'closed', 'closing again is idempotent'],
  ['closed', 'screening_cleared', 'closed', 'a review never reopens a closed person'],
];

describe('person lifecycle (SPEC §3.2)', () => {
  it.each(cells)('%s + %s → %j (%s)', (status, trigger, expected) => {
    expect(transition(status, trigger)).toEqual(expected);
  });

  it('has a written answer for every status and every trigger, and the test covers each once', () => {
    expect(Object.keys(PERSON_TRANSITIONS).sort()).toEqual([...PERSON_STATUSES].sort());
    for (const status of PERSON_STATUSES) {
      expect(Object.keys(PERSON_TRANSITIONS[status]).sort()).toEqual([...PERSON_TRIGGERS].sort());
    }
    const covered = new Set(cells.map(([status, trigger]) => `${status}/${trigger}`));
    expect(covered.size).toBe(PERSON_STATUSES.length * PERSON_TRIGGERS.length);
    expect(cells).toHaveLength(covered.size);
  });

  it('never leaves closed by any trigger', () => {
    for (const trigger of PERSON_TRIGGERS) {
      const outcome = transition('closed', trigger);
      expect(isRefusal(outcome) || outcome === 'closed').toBe(true);
    }
  });

  it('tells a refusal from a status', () => {
    expect(isRefusal(transition('closed', 'updated'))).toBe(true);
    expect(isRefusal(transition('created', 'updated'))).toBe(false);
  });
});

describe('how long identification needs the SSN (docs/api.md#sensitive-values)', () => {
  it.each([
    ['created', 0, true, 'waiting for identification'],
    ['rejected', 1, true, 'a first rejection waits for its automatic retry'],
    ['rejected', IDENTIFICATION_RUNS, false, 'rejected after the retry: final'],
    ['verified', 1, false, 'verified: final'],
    ['verified', IDENTIFICATION_RUNS, false, 'verified by the retry: final'],
    ['restricted', 1, false, 're-screening reads names and dates of birth, never the SSN'],
    ['closed', 1, false, 'never identified again'],
  ] as const)('%s after %i run(s) → %s (%s)', (status, attempts, needed, _why) => {
    expect(identificationNeedsSsn({ status, identification_attempts: attempts })).toBe(needed);
  });
});
