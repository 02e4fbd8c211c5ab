import type { Person } from '#domain/person';
import type { ListPage, PageRequest } from '#shared/db/list-positions/index';
import { type PersonListFilter, personList, persons } from '#shared/db/persons/index';
import { NotFoundError } from '#shared/errors';

// Reading persons: one by id, or a page of a filtered list (another tenant's id is unknown).

export async function getPerson(tenant: string, id: string): Promise<Person> {
  const person = await persons().get(tenant, id);
  if (!person) throw unknownPerson();
  return person;
}

/**
 * A person here carries no bank account, so Orum's `account_number` filter matches no one
 * (docs/decisions.md#the-persons-account-number-filter-matches-no-one): nothing is read.
 */
export async function listPersons(
  tenant: string,
  { accountNumber, ...filter }: PersonListFilter & { accountNumber?: string },
  request: PageRequest,
): Promise<ListPage<Person>> {
  if (accountNumber !== undefined) return { items: [] };
  return personList().page(tenant, filter, request);
}

export const unknownPerson = () => new NotFoundError('unknown_id_person', 'no person has this id');
