import { checkIdentityData } from '#domain/identification';
import type { IdentityData, Person, ReasonCode, StatusReason } from '#domain/person';
import { personSecretContext, REASON_CODES, statusReason } from '#domain/person';
import { IDENTIFICATION_RUNS, identificationNeedsSsn, transition } from '#domain/person-lifecycle';
import { REASON_OF_LIST } from '#domain/screening-review';
import { type PlannedScreening, planScreening, storeScreening } from '#functions/screening-review/record-screening';
import { cipher } from '#shared/cipher/index';
import { type HitsChange, persons, type StoredPerson } from '#shared/db/persons/index';
import { retryOnConflict } from '#shared/db/retry';
import { heldLists } from '#shared/db/screening/held-lists';
import { tenants } from '#shared/db/tenants/index';
import { now } from '#shared/dependencies';
import { identityVendor } from '#shared/identity-vendor/index';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';
import type { IdentificationMessage } from './identification-message';

/**
 * Identification of one person (docs/api.md#identification): data checks, screening
 * against the sanctions and alert lists (both KYC modes), and for Service-KYC tenants the
 * identity vendor. Passing makes the person `verified`; failing makes it `rejected` with
 * its reasons and opens a review case (the automatic retry is queued by the stream rule
 * when the rejection is stored). A final outcome deletes the SSN's ciphertext in the
 * write that stores it (`identificationNeedsSsn`): only a first rejection keeps it, for
 * the retry. Safe to run twice: a request for an older identity revision, or for a person
 * no longer waiting for it, does nothing.
 */
export function identifyPerson(request: IdentificationMessage, logger: Logger): Promise<void> {
  return retryOnConflict(
    async () => {
      const stored = await persons().getStored(request.tenant, request.id);
      if (!stored || !awaitsIdentification(stored, request)) {
        logger.info('identification not needed any more', { person_id: request.id });
        return;
      }
      const { reasons, listsVersion, screening } = await identificationReasons(stored);
      const attempt = stored.person.identification_attempts + 1;
      const outcome = reasons.length === 0 ? 'identified' : 'identification_failed';
      const status = transition(stored.person.status, outcome) as Person['status'];
      const statusReasons = reasons.map(statusReason);
      if (status === 'rejected') await persons().openReviewCase(stored, attempt, statusReasons, now());
      // The outcome is stored with the hits it counts, in one write (#functions/screening-review/record-screening).
      await storeScreening(
        stored,
        screening,
        { ...outcomeChange(status, statusReasons, attempt), screeningListsVersion: listsVersion },
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
 * Every reason the person fails identification for, each once, in a stable order; the
 * lists' version it was screened against, and the screening's hits to record.
 */
async function identificationReasons(
  stored: StoredPerson,
): Promise<{ reasons: ReasonCode[]; listsVersion: number; screening: PlannedScreening }> {
  const { person } = stored;
  const data: IdentityData = {
    first_name: person.first_name,
    middle_name: person.middle_name,
    last_name: person.last_name,
    date_of_birth: person.date_of_birth,
    ssn: stored.ssnSecret ? await cipher().decrypt(stored.ssnSecret, personSecretContext(person)) : undefined,
    address: person.addresses?.[0],
  };
  const screening = await screen(stored);
  const reasons = [...checkIdentityData(data, now()), ...screening.reasons];
  if ((await tenants().kycModeOf(person.tenant)) === 'service') reasons.push(...(await identityVendor().verify(data)));
  // Each reason once, in the contract's order.
  return {
    reasons: REASON_CODES.filter((code) => reasons.includes(code)),
    listsVersion: screening.listsVersion,
    screening: screening.planned,
  };
}

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
