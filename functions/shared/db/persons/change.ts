import type { Person } from '#domain/person';
import { changedFields, type VersionedChange, versionedUpdateInput } from '../versioned-update';
import { nameAttributes, personListPartition } from './item';
import { personKeys } from './keys';

// What a change of a person writes: the person as read for it, the change, its versioned
// write, and the person's part of a write of its screening hits.

/** A person as read for a change: the person, its SSN ciphertext, identity revision and hits' revision. */
export interface StoredPerson {
  person: Person;
  ssnSecret?: string;
  /** Bumped whenever identity data changes: identification runs for one revision. */
  identityRev: number;
  /**
   * One more for every write of the person's screening hits, in the same transaction
   * (`hitsUpdateInput`); 0 before the first. A write decided on the hits read requires it unchanged.
   */
  hitsRev: number;
}

/** A change stored with a write of the person's hits: a new reference id takes a transaction of its own. */
export type HitsChange = PersonChange & { set: { customer_reference_id?: never } };

/** What an update changes on a person; identity changes also pass the new SSN ciphertext, or null to remove it. */
export interface PersonChange {
  /** The fields that change; a field absent (or `undefined`) is unchanged, never removed. */
  set: Partial<Omit<Person, 'id' | 'tenant' | 'created_at' | 'version'>>;
  /** Attributes removed (optional fields cleared): the only way a change removes one. */
  remove?: (keyof Person)[];
  /**
   * The SSN ciphertext: a string replaces it, null deletes it, undefined keeps it; the
   * person's `has_ssn` follows (true while a ciphertext is stored).
   */
  ssnSecret?: string | null;
  /** The identity data changed: identification must run again. */
  identityChanged?: boolean;
  /** The screening lists' version this outcome was screened against (kept, never returned). */
  screeningListsVersion?: number;
}

/** The attributes a change sets and removes, those derived from it included (name keys, list partition, SSN). */
export function versionedChangeOf(stored: StoredPerson, change: PersonChange): VersionedChange {
  const { person } = stored;
  const set = changedFields(change.set);
  const remove: string[] = [...(change.remove ?? [])];
  const next = { ...person, ...change.set };
  if (change.set.first_name !== undefined || change.set.last_name !== undefined)
    Object.assign(set, nameAttributes(next));
  // The list partition is keyed by the status: a new status moves the index entry.
  if (change.set.status !== undefined && change.set.status !== person.status) set.gsi1pk = personListPartition(next);
  if (change.ssnSecret === null) remove.push('ssn_secret');
  else if (change.ssnSecret !== undefined) set.ssn_secret = change.ssnSecret;
  if (change.ssnSecret !== undefined) set.has_ssn = change.ssnSecret !== null;
  if (change.identityChanged) set.identity_rev = stored.identityRev + 1;
  if (change.screeningListsVersion !== undefined) set.screening_lists_version = change.screeningListsVersion;
  return { set, remove };
}

/**
 * The person's Update in the transaction that writes its screening hits (a screening's, a
 * decision's; docs/data-model.md, pattern 24): `hits_rev` one more, on condition that
 * neither the person (`version`) nor its hits (`hits_rev`) changed since `stored` was read,
 * so of two writes decided on the same hits the second fails. With a change, the change's
 * versioned write too; without one, the person's fields, `version` and `updated_at` stay
 * as they are (partners see nothing, no event follows).
 */
export function hitsUpdateInput(tableName: string, stored: StoredPerson, now: Date, change?: HitsChange) {
  const { person } = stored;
  const key = personKeys.person(person.tenant, person.id);
  const hitsUnchanged = stored.hitsRev === 0 ? 'attribute_not_exists(hits_rev)' : 'hits_rev = :hitsRead';
  const read = stored.hitsRev === 0 ? {} : { ':hitsRead': stored.hitsRev };
  if (!change) {
    return {
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET hits_rev = :hitsNext',
      ConditionExpression: `version = :v AND ${hitsUnchanged}`,
      ExpressionAttributeValues: { ':v': person.version, ':hitsNext': stored.hitsRev + 1, ...read },
    };
  }
  const versioned = versionedChangeOf(stored, change);
  const input = versionedUpdateInput(
    tableName,
    key,
    person.version,
    { set: { ...versioned.set, hits_rev: stored.hitsRev + 1 }, remove: versioned.remove },
    now,
  );
  return {
    ...input,
    ConditionExpression: `${input.ConditionExpression} AND ${hitsUnchanged}`,
    ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...read },
  };
}
