import type { Person } from '#domain/person';
import { ENTITY } from '../entities';
import { withoutStorageFields } from '../items';
import { listShardOf, shardOf } from '../shards';
import { personKeys } from './keys';

/**
 * Stored beside the person, never returned: the SSN ciphertext, the list-filter keys, the
 * identity revision, the screening lists' version its identification used and the
 * revision of its screening hits.
 */
const PERSON_STORAGE_ONLY = [
  'ssn_secret',
  'first_name_key',
  'last_name_key',
  'identity_rev',
  'screening_lists_version',
  'hits_rev',
] as const;

/** The domain's person from a stored item (or a stream image). */
export function toPerson(item: Record<string, unknown>): Person {
  return withoutStorageFields(item, PERSON_STORAGE_ONLY) as unknown as Person;
}

/** The list filters on names are case-insensitive exact matches. */
export const nameFilterKey = (name: string): string => name.trim().toLowerCase();

/** The attributes derived from the person's names: the list filters' keys. */
export function nameAttributes(person: Pick<Person, 'first_name' | 'last_name'>) {
  return { first_name_key: nameFilterKey(person.first_name), last_name_key: nameFilterKey(person.last_name) };
}

/**
 * How many shards the persons' screening partitions have: the re-screens walk them in
 * parallel, one message per shard, so no partition holds more than an eighth of the
 * persons and a walk of a million takes minutes, not an hour.
 */
export const SCREENING_SHARDS = 8;

/** The person's screening shard: a hash of tenant and id, fixed for the person's life. */
export const screeningShardOf = (tenant: string, id: string): number => shardOf(`${tenant}#${id}`, SCREENING_SHARDS);

/** The person's entry in the screening walk (written once: its key never changes). */
function screeningAttributes(person: Pick<Person, 'tenant' | 'id'>) {
  return {
    gsi2pk: personKeys.screening(screeningShardOf(person.tenant, person.id)),
    gsi2sk: personKeys.screeningOrder(person.tenant, person.id),
  };
}

/** The person's list partition: its tenant, its status, its shard (written again when the status changes). */
export const personListPartition = (person: Pick<Person, 'tenant' | 'id' | 'status'>): string =>
  personKeys.list(person.tenant, person.status, listShardOf(person.tenant, person.id));

/** A new person as stored: its key, its list and screening walk entries, the person. */
export function personItem(person: Person): Record<string, unknown> {
  return {
    ...personKeys.person(person.tenant, person.id),
    entity: ENTITY.person,
    gsi1pk: personListPartition(person),
    gsi1sk: personKeys.order(person.created_at, person.id),
    ...nameAttributes(person),
    ...screeningAttributes(person),
    ...person,
  };
}

/** The item that holds a customer reference id for one person of the tenant (unique per tenant). */
export const referenceItem = (tenant: string, customerReferenceId: string, personId: string) => ({
  ...personKeys.reference(tenant, customerReferenceId),
  entity: ENTITY.personReference,
  version: 1,
  tenant,
  person_id: personId,
});
