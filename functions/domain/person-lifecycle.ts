import type { Person, PersonStatus } from './person';

// The person's status machine (SPEC §3.2, docs/api.md#person-lifecycle) as one table, so
// every (status, trigger) pair has a written answer and a test.

export const PERSON_TRIGGERS = [
  /** Identification passed (first run, or the automatic retry of a rejection). */
  'identified',
  /** Identification failed: status reasons are filled beside the status. */
  'identification_failed',
  /** Re-screening of a verified person matched the sanctions list. */
  'sanctions_match',
  /** A PATCH or PUT changed identity data (names, SSN, date of birth, address): identify again. */
  'identity_updated',
  /** A PATCH or PUT changed only other fields (contacts, metadata, reference id). */
  'updated',
  /** DELETE. */
  'closed',
  /**
   * An operator cleared the last screening hit holding the person as a false positive
   * (docs/api.md#hits-to-review); applied only when screening was the person's sole reason
   * (`#domain/screening-review`'s `clearingLiftsHold`).
   */
  'screening_cleared',
] as const;
export type PersonTrigger = (typeof PERSON_TRIGGERS)[number];

/** A change the caller may not make: the handler answers `409` with this code. */
export interface TransitionRefusal {
  refused: 'person_closed' | 'person_restricted';
}
export type TransitionOutcome = PersonStatus | TransitionRefusal;

const REFUSED_CLOSED: TransitionRefusal = Object.freeze({ refused: 'person_closed' });
const REFUSED_RESTRICTED: TransitionRefusal = Object.freeze({ refused: 'person_restricted' });

/*
 * A trigger that does not apply in a status leaves it unchanged: results arrive
 * asynchronously and may be late (an identification that finishes after a DELETE must
 * not reopen the person), so the worker applies them without checking first.
 * - sanctions_match touches only `verified`: created and rejected persons are screened as
 *   part of identification, and a match there is a rejection, not a restriction.
 * - identity_updated on `restricted` is refused: editing the identity of a sanctioned
 *   person would re-identify it out of the restriction.
 * - closed is terminal, and closing again is idempotent (a retried DELETE answers 200).
 * - screening_cleared lifts a hold that screening alone put on the person (restricted, or
 *   rejected); the use case applies it only when no other reason or hit remains.
 */
export const PERSON_TRANSITIONS: Readonly<Record<PersonStatus, Readonly<Record<PersonTrigger, TransitionOutcome>>>> = {
  created: {
    identified: 'verified',
    identification_failed: 'rejected',
    sanctions_match: 'created',
    identity_updated: 'created',
    updated: 'created',
    closed: 'closed',
    screening_cleared: 'created',
  },
  verified: {
    identified: 'verified',
    identification_failed: 'verified',
    sanctions_match: 'restricted',
    identity_updated: 'created',
    updated: 'verified',
    closed: 'closed',
    screening_cleared: 'verified',
  },
  rejected: {
    identified: 'verified',
    identification_failed: 'rejected',
    sanctions_match: 'rejected',
    identity_updated: 'created',
    updated: 'rejected',
    closed: 'closed',
    screening_cleared: 'verified',
  },
  restricted: {
    identified: 'restricted',
    identification_failed: 'restricted',
    sanctions_match: 'restricted',
    identity_updated: REFUSED_RESTRICTED,
    updated: 'restricted',
    closed: 'closed',
    screening_cleared: 'verified',
  },
  closed: {
    identified: 'closed',
    identification_failed: 'closed',
    sanctions_match: 'closed',
    identity_updated: REFUSED_CLOSED,
    updated: REFUSED_CLOSED,
    closed: 'closed',
    screening_cleared: 'closed',
  },
};

export function transition(status: PersonStatus, trigger: PersonTrigger): TransitionOutcome {
  return PERSON_TRANSITIONS[status][trigger];
}

export const isRefusal = (outcome: TransitionOutcome): outcome is TransitionRefusal => typeof outcome !== 'string';

/** Identification runs at most this often per identity revision: the first run and one automatic retry. */
export const IDENTIFICATION_RUNS = 2;

/**
 * Whether automatic identification may still need the person's SSN: while the person
 * waits for it (`created`), or while a first rejection waits for its automatic retry.
 * Otherwise the outcome is final (verified, rejected after the retry, closed), and the
 * SSN's ciphertext is deleted in the write that stores it. Re-screening reads names and
 * dates of birth only, so it is no reason to keep the SSN (docs/api.md#sensitive-values).
 */
export const identificationNeedsSsn = (person: Pick<Person, 'status' | 'identification_attempts'>): boolean =>
  person.status === 'created' || (person.status === 'rejected' && person.identification_attempts < IDENTIFICATION_RUNS);
