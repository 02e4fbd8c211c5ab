import { randomUUID } from 'node:crypto';
import type { Person, PersonAddress, PersonContact } from '#domain/person';
import { parseInput } from '#shared/validation';
import type { AddressChange, ContactChange } from './person-fields';
import { completePersonLists } from './request-schemas';

// Turning request bodies into person data: new address and contact objects get their own
// id and timestamps, changed ones keep their id and creation time. Shared by create,
// replace and partial update, so each applies the same rules.

/** The fields of a person that identification looks at; a change of any re-identifies. */
const IDENTITY_FIELDS = ['first_name', 'middle_name', 'last_name', 'date_of_birth', 'addresses'] as const;

/**
 * The person's one address after a request. `merge` (PATCH) changes only the fields given
 * in the stored address of that type, and `address2: null` removes it; without a stored
 * address the given fields must make a whole one. Otherwise (create, replace) the given
 * address is the whole address. Either way a stored address keeps its id and creation time.
 */
export function addressesFrom(
  input: AddressChange[],
  current: PersonAddress[] | undefined,
  at: string,
  { merge = false } = {},
): PersonAddress[] {
  return input.slice(0, 1).map((given) => {
    const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v !== null));
    const existing = current?.find((stored) => stored.type === (given.type ?? 'home'));
    if (!existing) {
      if (merge) parseInput(completePersonLists, { addresses: [fields] }, 'body');
      return { id: randomUUID(), type: 'home', ...fields, created_at: at, updated_at: at } as PersonAddress;
    }
    const kept = { id: existing.id, created_at: existing.created_at, updated_at: existing.updated_at };
    const next = { ...(merge ? existing : kept), ...fields } as PersonAddress;
    if (given.address2 === null) delete next.address2;
    return sameAddress(next, existing) ? existing : { ...next, updated_at: at };
  });
}

/**
 * The person's contacts after a request, in the order given. A contact equal to a stored one
 * keeps its id; a contact without a value (PATCH) is the stored contact of its type not
 * already kept, and without one answers `missing_contacts_value`, as on create.
 */
export function contactsFrom(
  input: ContactChange[],
  current: PersonContact[] | undefined,
  at: string,
): PersonContact[] {
  const unclaimed = [...(current ?? [])];
  const claim = (matches: (stored: PersonContact) => boolean) => {
    const index = unclaimed.findIndex(matches);
    return index < 0 ? undefined : unclaimed.splice(index, 1)[0];
  };
  // Contacts given whole claim their equals first, so one without a value never takes them.
  const equal = input.map((given) => claim((stored) => stored.type === given.type && stored.value === given.value));
  const resolved: (PersonContact | ContactChange)[] = input.map((given, n) =>
    given.value === undefined ? (claim((stored) => stored.type === given.type) ?? given) : (equal[n] ?? given),
  );
  if (resolved.some((contact) => contact.value === undefined)) {
    parseInput(
      completePersonLists,
      { contacts: resolved.map(({ type, value }) => (value === undefined ? { type } : { type, value })) },
      'body',
    );
  }
  return resolved.map((contact) =>
    isStored(contact)
      ? contact
      : { id: randomUUID(), type: contact.type, value: contact.value as string, created_at: at, updated_at: at },
  );
}

function isStored(contact: PersonContact | ContactChange): contact is PersonContact {
  return 'id' in contact;
}

const ADDRESS_FIELDS = ['type', 'address1', 'address2', 'city', 'state', 'country', 'zip5'] as const;
const sameAddress = (a: PersonAddress, b: PersonAddress) => ADDRESS_FIELDS.every((field) => a[field] === b[field]);

/** Whether a change of these fields touches identity data. */
export function identityChanged(before: Person, after: Partial<Person>, ssnGiven: boolean): boolean {
  if (ssnGiven) return true;
  return IDENTITY_FIELDS.some(
    (field) => field in after && JSON.stringify(after[field]) !== JSON.stringify(before[field]),
  );
}
