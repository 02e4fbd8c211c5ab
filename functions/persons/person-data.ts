import { randomUUID } from 'node:crypto';
import type { ContactType, Person, PersonAddress, PersonContact } from '#domain/person';

/**
 * Turning request bodies into person data: new address and contact objects get their own
 * id and timestamps, changed ones keep their id and creation time. Shared by create,
 * replace and partial update, so each applies the same rules.
 */

/** An address as a request gives it (`null` fields mean absent). */
export interface AddressInput {
  type?: 'home' | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  country?: 'US' | null;
  zip5?: string | null;
}

export interface ContactInput {
  type: ContactType;
  value: string;
}

/** The fields of a person that identification looks at; a change of any re-identifies. */
export const IDENTITY_FIELDS = ['first_name', 'middle_name', 'last_name', 'date_of_birth', 'addresses'] as const;

/** The person's one address after a request: a new one, or the stored one with the given fields changed. */
export function addressesFrom(
  input: AddressInput[],
  current: PersonAddress[] | undefined,
  at: string,
): PersonAddress[] {
  return input.slice(0, 1).map((given) => {
    const existing = current?.[0];
    const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v !== null));
    if (existing) {
      const merged = { ...existing, ...fields } as PersonAddress;
      if (given.address2 === null) delete merged.address2;
      return sameAddress(merged, existing) ? existing : { ...merged, updated_at: at };
    }
    return { id: randomUUID(), type: 'home', ...fields, created_at: at, updated_at: at } as PersonAddress;
  });
}

/** The person's contacts after a request: one per given contact, keeping the id of an unchanged one. */
export function contactsFrom(input: ContactInput[], current: PersonContact[] | undefined, at: string): PersonContact[] {
  return input.map((given) => {
    const same = current?.find((c) => c.type === given.type && c.value === given.value);
    return same ?? { id: randomUUID(), type: given.type, value: given.value, created_at: at, updated_at: at };
  });
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
