import type { Person } from '#domain/person';
import { changedFields, type VersionedChange } from '../versioned-update';
import { nameAttributes, personListPartition } from './item';

/** A person as read for a change: the person, its SSN ciphertext and identity revision. */
export interface StoredPerson {
  person: Person;
  ssnSecret?: string;
  /** Bumped whenever identity data changes: identification runs for one revision. */
  identityRev: number;
}

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

/**
 * The versioned change a person's change writes: its fields, and what follows from them in
 * storage (the names' filter keys, the list partition of a new status, the SSN ciphertext
 * and `has_ssn`, the identity revision, the screening lists' version).
 */
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
