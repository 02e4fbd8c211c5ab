import type { Person } from '#domain/person';
import { transition } from '#domain/person-lifecycle';
import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { now } from '#shared/dependencies';
import { changePerson } from './change-person';

/**
 * DELETE: the person is closed for good (closing a closed person answers it unchanged). A
 * closed person is never identified again, so its SSN ciphertext goes in the same write.
 * With `keep` (HandlerRequest.answers), the request's answer is written with it.
 */
export function closePerson(tenant: string, id: string, keep?: KeepAnswer<Person>): Promise<Person> {
  return changePerson(
    tenant,
    id,
    ({ person }) => {
      if (person.status === 'closed') return undefined;
      const status = transition(person.status, 'closed') as Person['status'];
      return { set: { status, closed_at: now().toISOString() }, ssnSecret: null };
    },
    keep,
  );
}
