import * as z from 'zod/mini';
import { CONTACT_TYPES, PERSON_STATUSES } from '#domain/person';
import {
  chars,
  dateTime,
  endAfterStart,
  idFilter,
  listQuery,
  many,
  nameText,
  once,
  string,
  text,
  unknownIdParams,
} from '#shared/input-schemas';
import { withFieldCodes } from '#shared/validation';

/**
 * Request schemas of the person endpoints (docs/api.md#persons, #lists). Error codes are
 * the ones Orum's persons API documents, so a client written for Orum reads them:
 * address and contact fields answer their own (`missing_city`, `invalid_contacts_value`),
 * the status filter `invalid_person_status`, the id filter `invalid_orum_id`. Messages
 * state the rule and never echo the value (it may be an SSN).
 * The building blocks every area shares are in #shared/input-schemas.
 */

const name = nameText(1);

/** Orum's middle name may be empty; an empty one is no middle name (left out, or removed by PATCH). */
const middleName = z.pipe(
  z.nullable(nameText(0)),
  z.transform((v) => (v === '' ? null : v)),
);

/** The shape only: whether the date exists, and the age, are identification's (`invalid_dob`, `ineligible_age`). */
const dateOfBirth = string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD'));

/** Accepted with or without dashes; the use case receives the 9 digits. */
const socialSecurityNumber = z.pipe(
  string().check(z.regex(/^(\d{3}-\d{2}-\d{4}|\d{9})$/, 'must be 9 digits, written XXX-XX-XXXX or XXXXXXXXX')),
  z.transform((v) => v.replaceAll('-', '')),
);

/** A person's address is always `home` (`legal` is a business's); an empty address2 is none. */
const address = z.pipe(
  z.strictObject(
    {
      type: z.enum(['home'], { error: 'must be home' }),
      address1: text(1, 255),
      address2: z.optional(
        z.pipe(
          z.nullable(text(0, 255)),
          z.transform((v) => v || undefined),
        ),
      ),
      city: text(1, 255),
      state: string().check(z.regex(/^[A-Z]{2}$/, 'must be a 2-letter upper-case state code, e.g. NY')),
      country: z.enum(['US'], { error: 'must be US' }),
      zip5: string().check(z.regex(/^\d{5}$/, 'must be 5 digits')),
    },
    { error: 'must be an address object' },
  ),
  z.transform(withoutAbsent),
);
const addresses = z
  .array(address, { error: 'must be a list holding one address' })
  .check(z.length(1, 'must hold exactly one address'));

/**
 * Phones are E.164 (`+14155550123`) or, as Orum documents, a 10-digit US number
 * (`4155550123`); both are kept as E.164, so one number is one value wherever it is
 * compared (Orum caps how many customers may share a phone number).
 */
const E164 = /^\+[1-9]\d{1,14}$/;
const US_TEN_DIGITS = /^[2-9]\d{2}[2-9]\d{6}$/;
const emailAddress = z.email();
const contact = z.pipe(
  z
    .strictObject(
      {
        type: z.enum(CONTACT_TYPES, { error: `must be one of ${CONTACT_TYPES.join(', ')}` }),
        value: text(1, 255),
      },
      { error: 'must be a contact object' },
    )
    .check(
      z.superRefine((c, ctx) => {
        const valid =
          c.type === 'email'
            ? z.safeParse(emailAddress, c.value).success
            : E164.test(c.value) || US_TEN_DIGITS.test(c.value);
        if (valid) return;
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message:
            c.type === 'email'
              ? 'must be an email address'
              : 'must be a phone number in E.164 format (+14155550123) or a 10-digit US number',
        });
      }),
    ),
  z.transform((c) => (c.type === 'phone' && US_TEN_DIGITS.test(c.value) ? { ...c, value: `+1${c.value}` } : c)),
);
const contactList = (min: number) =>
  z.array(contact, { error: 'must be a list of contacts' }).check(
    z.minLength(min, `must hold ${min} to 2 contacts`),
    z.maxLength(2, `must hold ${min} to 2 contacts`),
    z.refine(
      (list) => new Set(list.map((c) => c.type)).size === list.length,
      'may hold one email and one phone at most',
    ),
  );

const MAX_METADATA_KEYS = 5;
const metadata = z
  .record(
    z.string().check(chars(1, 20, 'keys must be')),
    z.string({ error: 'values must be strings' }).check(chars(0, 50, 'values must be')),
    { error: (issue) => (issue.code === 'invalid_key' ? 'keys must be 1 to 20 characters' : 'must be an object') },
  )
  .check(z.refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `may hold at most ${MAX_METADATA_KEYS} keys`));

/**
 * Nested fields answer Orum's codes: `addresses.0.city` → `missing_city` / `invalid_city`.
 * Anything else inside a list (the list itself, an item that is not an object) answers
 * the list's code, `invalid_addresses` / `invalid_contacts`.
 */
const PERSON_FIELD_CODES = {
  'addresses.*.type': 'addresses_type',
  'addresses.*.address1': 'address1',
  'addresses.*.address2': 'address2',
  'addresses.*.city': 'city',
  'addresses.*.state': 'state',
  'addresses.*.country': 'country',
  'addresses.*.zip5': 'zip5',
  'contacts.*.type': 'contacts_type',
  'contacts.*.value': 'contacts_value',
} as const;

/** On create and replace, `null` for an optional field means what leaving it out means. */
const omittable = <T extends z.core.$ZodType>(schema: T) => z.optional(z.nullable(schema));

/** POST /persons, PUT /persons (by `customer_reference_id`) and PUT /persons/{id}. */
export const createPersonBody = withFieldCodes(
  z.pipe(
    z.strictObject({
      customer_reference_id: text(1, 255),
      first_name: name,
      middle_name: z.optional(middleName),
      last_name: name,
      date_of_birth: omittable(dateOfBirth),
      social_security_number: omittable(socialSecurityNumber),
      addresses: omittable(addresses),
      contacts: omittable(contactList(1)),
      metadata: omittable(metadata),
    }),
    z.transform(withoutAbsent),
  ),
  PERSON_FIELD_CODES,
);
export type CreatePersonBody = z.output<typeof createPersonBody>;
export type PersonAddressInput = CreatePersonBody extends { addresses?: (infer A)[] } ? A : never;
export type PersonContactInput = CreatePersonBody extends { contacts?: (infer C)[] } ? C : never;

/** A required field may be changed by PATCH but never removed. */
const kept = <T extends z.core.$ZodType>(schema: T) =>
  z.optional(
    z.pipe(
      z.unknown().check(z.refine((v) => v !== null, { message: 'is required and cannot be removed', abort: true })),
      schema,
    ),
  );

/** Orum allows an empty list in PATCH; it removes, as `null` does. */
const removable = <T extends z.core.$ZodType<unknown[]>>(list: T) =>
  z.optional(
    z.pipe(
      z.nullable(list),
      z.transform((v) => (v === null || v.length === 0 ? null : v)),
    ),
  );

/**
 * PATCH /persons/{id}: only the fields sent change. A field left out is unchanged; `null`
 * removes an optional field (`middle_name`, `date_of_birth`, `social_security_number`,
 * `addresses`, `contacts`, `metadata`) and is refused for a required one. A list or
 * `metadata` sent replaces the current one as a whole (Orum's partial address items are
 * not taken: a stored address is always complete). `{}` changes nothing.
 */
export const patchPersonBody = withFieldCodes(
  z.strictObject({
    customer_reference_id: kept(text(1, 255)),
    first_name: kept(name),
    middle_name: z.optional(middleName),
    last_name: kept(name),
    date_of_birth: z.optional(z.nullable(dateOfBirth)),
    social_security_number: z.optional(z.nullable(socialSecurityNumber)),
    addresses: removable(
      z
        .array(address, { error: 'must be a list holding one address' })
        .check(z.maxLength(1, 'must hold one address at most')),
    ),
    contacts: removable(contactList(0)),
    metadata: z.optional(z.nullable(metadata)),
  }),
  PERSON_FIELD_CODES,
);
export type PatchPersonBody = z.output<typeof patchPersonBody>;

/**
 * A malformed path id answers `404 unknown_id_person`, as Orum documents for it: no
 * person can have such an id, so it is not found, and a client written for Orum expects
 * that code (Verify's routes answer `400 invalid_id`). Checked here so it never reaches a key.
 */
export const personIdParams = unknownIdParams('unknown_id_person', 'no person has this id');
export type PersonIdParams = z.output<typeof personIdParams>;

/** The `id` filter answers Orum's documented `invalid_orum_id`, given twice included. */
const personIdFilter = idFilter('invalid_orum_id', 'must be one person id (a UUID)');

/**
 * GET /persons. Orum's `account_number` filter is left out: a person here carries no
 * bank account, so it would match nothing (and is refused as an unknown parameter).
 */
export const listPersonsQuery = withFieldCodes(
  listQuery({
    id: z.optional(personIdFilter),
    customer_reference_id: z.optional(z.pipe(once(), text(1, 255))),
    status: z.optional(many(PERSON_STATUSES)),
    start_time: z.optional(dateTime),
    end_time: z.optional(dateTime),
    first_name: z.optional(z.pipe(once(), text(1, 255))),
    last_name: z.optional(z.pipe(once(), text(1, 255))),
  }).check(endAfterStart),
  { status: 'person_status' },
);
export type ListPersonsQuery = z.output<typeof listPersonsQuery>;

/** Leaves out the keys whose value is absent (`null` or `undefined`), so the output has no nulls. */
function withoutAbsent<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}
