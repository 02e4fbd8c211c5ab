import type { Person } from '#domain/person';
import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { type PersonChange, persons, type StoredPerson } from '#shared/db/persons/index';
import { retryOnConflict } from '#shared/db/retry';
import { now } from '#shared/dependencies';
import { metrics } from '#shared/metrics';
import { unknownPerson } from './read-persons';

/** Racing writers to one person spread out; a caller sees 409 concurrent_update only after every attempt lost. */
export const PERSON_WRITE_RETRY = { attempts: 8, jitterMs: 25 } as const;

/**
 * Every change of a person is a fresh read, a decision by the lifecycle rules (`decide`;
 * `undefined` changes nothing) and one versioned write; a write that loses a race is
 * decided again on the fresh person, so concurrent updates never lose a write. With `keep`
 * (HandlerRequest.answers), the request's answer is written with the change.
 */
export async function changePerson(
  tenant: string,
  id: string,
  decide: (stored: StoredPerson) => Promise<PersonChange | undefined> | PersonChange | undefined,
  keep?: KeepAnswer<Person>,
): Promise<Person> {
  return retryOnConflict(async () => {
    const stored = await persons().getStored(tenant, id);
    if (!stored) throw unknownPerson();
    const change = await decide(stored);
    if (!change) return stored.person;
    const updated = await persons().update(stored, change, now(), keep);
    if (updated.status !== stored.person.status) metrics().count('PersonStatusChanged');
    return updated;
  }, PERSON_WRITE_RETRY);
}
