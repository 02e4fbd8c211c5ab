import type { Person } from '#domain/person';
import { transition } from '#domain/person-lifecycle';
import { now } from '#shared/dependencies';
import { changePerson } from './change-person';

/**
 * DELETE: the person is closed for good (closing a closed person answers it unchanged). A
 * closed person is never identified again, so its SSN ciphertext goes in the same write.
 */
export function closePerson(tenant: string, id: string): Promise<Person> {
  return changePerson(tenant, id, ({ person }) => {
    if (person.status === 'closed') return undefined;
    const status = transition(person.status, 'closed') as Person['status'];
    return { set: { status, closed_at: now().toISOString() }, ssnSecret: null };
  });
}
