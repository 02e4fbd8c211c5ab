import { needsIdentification } from '#domain/person';
import { identificationRetryDelaySeconds } from '#shared/config';
import { toPerson } from '#shared/db/persons/item';
import type { Image, StreamAction, StreamRule } from '#shared/stream/rules';
import { personEvent } from './event-kinds';
import type { IdentificationMessage } from './identification-message';

/**
 * What a change of a person asks for (docs/api.md#person-lifecycle):
 * - a new person is a `person_created` event;
 * - a change of status is the event of the new status (`person_verified`, `_rejected`,
 *   `_restricted`, `_closed`); a return to `created` after an identity change is no
 *   event of its own (the person was created once), its identification outcome is;
 * - a person in `created` whose identity data is new (a new person, or a new identity
 *   revision) and who carries any of SSN, date of birth or address is queued for
 *   identification; names alone stay `created`;
 * - a first rejection queues the one automatic retry, delayed
 *   (`IDENTIFICATION_RETRY_DELAY_SECONDS`), here rather than in the worker so that the
 *   stored rejection and its retry cannot part;
 * - an identity vendor's check found still pending (a new look counted on the person) queues
 *   the next look, 15 minutes later, so a lost vendor notice delays the outcome, never loses it.
 */
export const personStreamRule: StreamRule = ({ eventName, tenant, oldImage, newImage }) => {
  if (eventName === 'REMOVE') return [];
  const person = toPerson(newImage);
  const actions: StreamAction[] = [];
  const statusChanged = eventName === 'INSERT' || oldImage?.status !== newImage.status;
  if (statusChanged && (eventName === 'INSERT' || person.status !== 'created')) {
    actions.push({ kind: 'record-event', tenant, envelope: personEvent(person) });
  }
  const newIdentity = eventName === 'INSERT' || identityRev(oldImage) !== identityRev(newImage);
  if (person.status === 'created' && newIdentity && needsIdentification(person)) {
    const body: IdentificationMessage = { tenant, id: person.id, identity_rev: identityRev(newImage) };
    actions.push({ kind: 'enqueue', queue: 'identification', message: { id: person.id, body } });
  }
  if (statusChanged && person.status === 'rejected' && person.identification_attempts === 1) {
    const body: IdentificationMessage = { tenant, id: person.id, identity_rev: identityRev(newImage), retry: true };
    const delaySeconds = identificationRetryDelaySeconds();
    actions.push({ kind: 'enqueue', queue: 'identification', message: { id: person.id, body, delaySeconds } });
  }
  const looks = pendingLooks(newImage);
  if (looks > 0 && looks !== pendingLooks(oldImage) && (person.status === 'created' || person.status === 'rejected')) {
    const retry = person.status === 'rejected' ? { retry: true } : {};
    const body: IdentificationMessage = { tenant, id: person.id, identity_rev: identityRev(newImage), ...retry };
    const message = { id: person.id, body, delaySeconds: PENDING_LOOK_DELAY_SECONDS };
    actions.push({ kind: 'enqueue', queue: 'identification', message });
  }
  return actions;
};

/** How long after a look that found the vendor's check pending the next one runs (SQS's longest delay). */
export const PENDING_LOOK_DELAY_SECONDS = 900;

const pendingLooks = (image: Image | undefined): number =>
  Number((image?.identity_check as { looks?: unknown } | undefined)?.looks ?? 0);

const identityRev = (image: Image | undefined): number => Number(image?.identity_rev ?? 1);
