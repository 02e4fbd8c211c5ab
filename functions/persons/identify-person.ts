import { checkIdentityData } from '#domain/identification';
import type { IdentityData, Person, ReasonCode, StatusReason } from '#domain/person';
import { personSecretContext, REASON_CODES, statusReason } from '#domain/person';
import { IDENTIFICATION_RUNS, identificationNeedsSsn, transition } from '#domain/person-lifecycle';
import { REASON_OF_LIST } from '#domain/screening-review';
import { type PlannedScreening, planScreening, storeScreening } from '#functions/screening-review/record-screening';
import { cipher } from '#shared/cipher/index';
import { type HitsChange, type IdentityCheckRecord, persons, type StoredPerson } from '#shared/db/persons/index';
import { retryOnConflict } from '#shared/db/retry';
import { heldLists } from '#shared/db/screening/held-lists';
import { tenants } from '#shared/db/tenants/index';
import { now } from '#shared/dependencies';
import {
  type IdentityCheckRef,
  isPendingCheck,
  type PendingIdentityCheck,
} from '#shared/identity-vendor/identity-vendor';
import { identityVendor } from '#shared/identity-vendor/index';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';
import type { IdentificationMessage } from './identification-message';

/**
 * How often a check the vendor has not finished is looked at again (each look queues the
 * next, 15 minutes later: functions/persons/stream-rules.ts), beside the vendor's notice:
 * 2 hours, then the person stays `created` and `IdentityCheckStalled` is counted (alarmed:
 * docs/operations.md#identity-checks-stalled).
 */
export const MAX_PENDING_LOOKS = 8;

/**
 * What identification found: the reasons, the lists' version and the screening's hits to
 * record, and the vendor's check; or a check still pending.
 */
type Findings =
  | { reasons: ReasonCode[]; listsVersion: number; screening: PlannedScreening; check?: IdentityCheckRecord }
  | { pending: PendingIdentityCheck };

/**
 * Identification of one person (docs/api.md#identification): data checks, screening
 * against the sanctions and alert lists (both KYC modes), and for Service-KYC tenants whose
 * data passes the service's own checks, the identity vendor. Passing makes the person
 * `verified`; failing makes it `rejected` with its reasons and opens a review case (the
 * automatic retry is queued by the stream rule when the rejection is stored). A vendor's
 * check still pending leaves the person as it is, its id kept, until the vendor's notice or
 * the next look. A final outcome deletes the SSN's ciphertext in the write that stores it
 * (`identificationNeedsSsn`): only a first rejection keeps it, for the retry. Safe to run
 * twice: a request for an older identity revision, or for a person no longer waiting for
 * it, does nothing; the vendor is asked for the same check, never a second one.
 */
export function identifyPerson(request: IdentificationMessage, logger: Logger): Promise<void> {
  return retryOnConflict(
    async () => {
      const stored = await persons().getStored(request.tenant, request.id);
      if (!stored || !awaitsIdentification(stored, request)) {
        logger.info('identification not needed any more', { person_id: request.id });
        return;
      }
      const found = await identificationFindings(stored);
      if ('pending' in found) return keepPending(stored, found.pending, logger);
      const { reasons, listsVersion, screening, check } = found;
      const attempt = stored.person.identification_attempts + 1;
      const outcome = reasons.length === 0 ? 'identified' : 'identification_failed';
      const status = transition(stored.person.status, outcome) as Person['status'];
      const statusReasons = reasons.map(statusReason);
      if (status === 'rejected') await persons().openReviewCase(stored, attempt, statusReasons, now());
      // The outcome is stored with the hits it counts, in one write (#functions/screening-review/record-screening).
      await storeScreening(
        stored,
        screening,
        {
          ...outcomeChange(status, statusReasons, attempt),
          screeningListsVersion: listsVersion,
          ...(check && { identityCheck: check }),
        },
        now(),
      );
      metrics().count('IdentificationCompleted');
      metrics().metadata('identification_status', status);
      if (status !== stored.person.status) metrics().count('PersonStatusChanged');
      logger.info('person identified', { person_id: request.id, status, reason_codes: reasons });
    },
    { attempts: 3, jitterMs: 0 },
  );
}

/** The write of an outcome: the status and its reasons, the run counted, the SSN deleted once no run needs it. */
function outcomeChange(status: Person['status'], reasons: StatusReason[], attempts: number): HitsChange {
  const rejected = status === 'rejected';
  return {
    set: { status, identification_attempts: attempts, ...(rejected && { status_reasons: reasons }) },
    remove: rejected ? [] : ['status_reasons'],
    ...(!identificationNeedsSsn({ status, identification_attempts: attempts }) && { ssnSecret: null }),
  };
}

function awaitsIdentification(stored: StoredPerson, request: IdentificationMessage): boolean {
  if (stored.identityRev !== request.identity_rev) return false;
  const { status, identification_attempts } = stored.person;
  return request.retry ? status === 'rejected' && identification_attempts < IDENTIFICATION_RUNS : status === 'created';
}

/**
 * A check the vendor has not finished: its id kept with the person, whose status stays,
 * and the look counted (the stored count queues the next look). Past the last look the
 * person is left as it is, and counted for the on-call (docs/operations.md).
 */
async function keepPending(stored: StoredPerson, pending: PendingIdentityCheck, logger: Logger): Promise<void> {
  const looks = sameRevision(stored) ? (stored.identityCheck?.looks ?? 0) + 1 : 1;
  if (looks > MAX_PENDING_LOOKS) {
    metrics().count('IdentityCheckStalled');
    logger.error('identity vendor check still pending after the last look', { vendor: pending.vendor, looks });
    return;
  }
  const check = { vendor: pending.vendor, reference: pending.reference, identity_rev: stored.identityRev, looks };
  await persons().keepPendingCheck(stored, check);
  metrics().count('IdentityCheckPending');
  logger.info('identity vendor check pending', { vendor: pending.vendor, reference: pending.reference, looks });
}

/** Whether the person's stored vendor check is of its current identity revision. */
const sameRevision = (stored: StoredPerson): boolean => stored.identityCheck?.identity_rev === stored.identityRev;

/**
 * Every reason the person fails identification for, each once, in a stable order; the
 * lists' version it was screened against, the screening's hits to record and the vendor's check.
 */
async function identificationFindings(stored: StoredPerson): Promise<Findings> {
  const { person } = stored;
  const data: IdentityData = {
    first_name: person.first_name,
    middle_name: person.middle_name,
    last_name: person.last_name,
    date_of_birth: person.date_of_birth,
    ssn: stored.ssnSecret ? await cipher().decrypt(stored.ssnSecret, personSecretContext(person)) : undefined,
    address: person.addresses?.[0],
    ...(phoneOf(person) && { phone: phoneOf(person) }),
  };
  const screening = await screen(stored);
  const own = checkIdentityData(data, now());
  const reasons = [...own, ...screening.reasons];
  let check: IdentityCheckRecord | undefined;
  // A person the service rejects on its own data is sent to no vendor (nor paid for).
  if (own.length === 0 && (await tenants().kycModeOf(person.tenant)) === 'service') {
    const answer = await identityVendor().verify(data, checkRef(stored));
    if (isPendingCheck(answer)) return { pending: answer };
    reasons.push(...answer.reasons);
    if (answer.reference) {
      const vendor = identityVendor().name;
      check = { vendor, reference: answer.reference, identity_rev: stored.identityRev, looks: 0 };
    }
  }
  // Each reason once, in the contract's order.
  return {
    reasons: REASON_CODES.filter((code) => reasons.includes(code)),
    listsVersion: screening.listsVersion,
    screening: screening.planned,
    check,
  };
}

/** The identification the vendor checks: the same revision's check is read by its id, never sent again. */
function checkRef(stored: StoredPerson): IdentityCheckRef {
  const { tenant, id } = stored.person;
  const reference = sameRevision(stored) ? stored.identityCheck?.reference : undefined;
  return { tenant, id, identityRev: stored.identityRev, ...(reference && { reference }) };
}

/** The person's first phone contact, which a vendor may match. */
const phoneOf = (person: Person): string | undefined => person.contacts?.find((c) => c.type === 'phone')?.value;

/**
 * Screening against both lists with the scored matcher (docs/api.md#screening): the lists
 * are held in memory (`heldLists`), so a person costs one read of their version, never a
 * walk over a list. The outcome keeps that version (`screening_lists_version`), and every
 * hit is recorded for review with it, with the outcome; a hit an operator cleared as a
 * false positive, on an unchanged person and listing, gives no reason.
 */
async function screen(
  stored: StoredPerson,
): Promise<{ reasons: ReasonCode[]; listsVersion: number; planned: PlannedScreening }> {
  const lists = await heldLists();
  const hits = [...lists.sanctions.screen(stored.person), ...lists.alerts.screen(stored.person)];
  const planned = await planScreening(stored, hits, lists.version, now());
  return { reasons: planned.effective.map((hit) => REASON_OF_LIST[hit.list]), listsVersion: lists.version, planned };
}
