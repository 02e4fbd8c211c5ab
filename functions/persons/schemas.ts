import * as z from 'zod/mini';
import { parseCalendarDate } from '#domain/identification';
import {
  CONTACT_TYPES,
  isMetadataValue,
  MAX_METADATA_KEY_CHARS,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_CHARS,
  type MetadataValue,
  PERSON_STATUSES,
} from '#domain/person';
import {
  accountNumberText,
  chars,
  dateTime,
  documented,
  endAfterStart,
  idFilter,
  listQuery,
  many,
  once,
  personNameText,
  string,
  text,
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

const name = personNameText(1);

/** Orum's middle name may be empty; an empty one is no middle name (left out, or removed by PATCH). */
const middleName = z.pipe(
  z.nullable(personNameText(0)),
  z.transform((v) => (v === '' ? null : v)),
);

/**
 * Orum's DateOfBirth pattern (years 1900–2099, months 01–12, days to 31), and a day that
 * exists in its month (Orum's pattern lets `2023-02-29` and day `00` through). Whether a
 * date that exists can be a birth date (not in the future, age under 100) is
 * identification's, `invalid_dob` / `ineligible_age`.
 */
const DATE_OF_BIRTH = /^(19|20)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const dateOfBirth = documented(
  string().check(
    z.refine((v) => DATE_OF_BIRTH.test(v) && parseCalendarDate(v) !== undefined, {
      message: 'must be a date that exists, written YYYY-MM-DD, in the years 1900 to 2099',
    }),
  ),
  {
    format: 'date',
    pattern: DATE_OF_BIRTH.source,
    description:
      'YYYY-MM-DD, in the years 1900 to 2099 (Orum’s pattern), and a day that exists: `2023-02-29` is refused too.',
  },
);

/** Accepted with or without dashes; the use case receives the 9 digits. */
const socialSecurityNumber = z.pipe(
  string().check(z.regex(/^(\d{3}-\d{2}-\d{4}|\d{9})$/, 'must be 9 digits, written XXX-XX-XXXX or XXXXXXXXX')),
  z.transform((v) => v.replaceAll('-', '')),
);

/** A person's address is always `home` (`legal` is a business's). */
const ADDRESS_FIELDS = {
  type: z.enum(['home'], { error: 'must be home' }),
  address1: text(1, 255),
  city: text(1, 255),
  state: string().check(z.regex(/^[A-Z]{2}$/, 'must be a 2-letter upper-case state code, e.g. NY')),
  country: z.enum(['US'], { error: 'must be US' }),
  zip5: string().check(z.regex(/^\d{5}$/, 'must be 5 digits')),
};
const address2 = z.nullable(text(0, 255));

/** An empty or null address2 is none. */
const address = z.pipe(
  z.strictObject(
    {
      ...ADDRESS_FIELDS,
      address2: z.optional(
        z.pipe(
          address2,
          z.transform((v) => v || undefined),
        ),
      ),
    },
    { error: 'must be an address object' },
  ),
  z.transform(withoutAbsent),
);
const addresses = z
  .array(address, { error: 'must be a list holding one address' })
  .check(z.length(1, 'must hold exactly one address'));

/**
 * PATCH's address, as Orum's PersonPatchPostalAddressRequest: `type` and the fields that
 * change, merged into the stored home address; an empty or null address2 removes it.
 * Without a stored address, the merged one must be complete (person-data.ts).
 */
const addressChange = z.strictObject(
  {
    type: ADDRESS_FIELDS.type,
    address1: z.optional(ADDRESS_FIELDS.address1),
    address2: z.optional(
      z.pipe(
        address2,
        z.transform((v) => v || null),
      ),
    ),
    city: z.optional(ADDRESS_FIELDS.city),
    state: z.optional(ADDRESS_FIELDS.state),
    country: z.optional(ADDRESS_FIELDS.country),
    zip5: z.optional(ADDRESS_FIELDS.zip5),
  },
  { error: 'must be an address object' },
);

/**
 * A contact's value is kept as sent. A phone is any string of up to 255 characters, as
 * Orum's schema has it (partners send `2125551212`, `(212) 555-1212`, E.164 …); nothing
 * compares or dials it here. An email must be one.
 */
const emailAddress = z.email();
const contactType = z.enum(CONTACT_TYPES, { error: `must be one of ${CONTACT_TYPES.join(', ')}` });
const validEmail = z.superRefine((c: { type: string; value?: string }, ctx) => {
  if (c.type !== 'email' || c.value === undefined || z.safeParse(emailAddress, c.value).success) return;
  ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be an email address' });
});
const contact = z
  .strictObject({ type: contactType, value: text(1, 255) }, { error: 'must be a contact object' })
  .check(validEmail);
/** PATCH's contact, as Orum's PatchContactRequestPerson: without `value`, the stored contact of its type. */
const contactChange = z
  .strictObject({ type: contactType, value: z.optional(text(1, 255)) }, { error: 'must be a contact object' })
  .check(validEmail);

/** Up to 2 contacts of any types, as Orum (two emails, two phones). */
const contactList = <C extends z.core.$ZodType>(item: C, min: number) =>
  z
    .array(item, { error: 'must be a list of contacts' })
    .check(z.minLength(min, `must hold ${min} to 2 contacts`), z.maxLength(2, `must hold ${min} to 2 contacts`));

/** Any JSON object, as Orum, within Orum's published bounds (`isMetadataValue`). */
const METADATA_VALUE_RULE = `values must be strings of at most ${MAX_METADATA_VALUE_CHARS} characters, or other JSON values of at most ${MAX_METADATA_VALUE_CHARS} characters written as JSON (numbers within ±(2^53 − 1))`;
const metadataValue = documented(z.custom<MetadataValue>(isMetadataValue, { message: METADATA_VALUE_RULE }), {
  description: `Any JSON value: a string of at most ${MAX_METADATA_VALUE_CHARS} characters, or another JSON value of at most ${MAX_METADATA_VALUE_CHARS} characters written as JSON (numbers within ±(2^53 − 1), and 0 or at least 1e-130 in size).`,
});
const KEY_RULE = `keys must be 1 to ${MAX_METADATA_KEY_CHARS} characters`;
const metadata = z
  .record(z.string().check(chars(1, MAX_METADATA_KEY_CHARS, 'keys must be')), metadataValue, {
    error: (issue) => (issue.code === 'invalid_key' ? KEY_RULE : 'must be an object'),
  })
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
      contacts: omittable(contactList(contact, 1)),
      metadata: omittable(metadata),
    }),
    z.transform(withoutAbsent),
  ),
  PERSON_FIELD_CODES,
);
export type CreatePersonBody = z.output<typeof createPersonBody>;

/**
 * The lists a PATCH leaves to be completed from the stored person (person-data.ts): once a
 * partial address is merged and contacts without a value take the stored ones, what is
 * still missing answers as on create (`missing_address1`, `missing_contacts_value`).
 */
export const completePersonLists = withFieldCodes(
  z.strictObject({ addresses: z.optional(addresses), contacts: z.optional(contactList(contact, 1)) }),
  PERSON_FIELD_CODES,
);

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
 * `addresses`, `contacts`, `metadata`) and is refused for a required one. As in Orum's
 * PatchPersonRequest, an address needs only `type` (the fields sent are merged into the
 * stored address) and a contact only `type` (without `value`, the stored contact of that
 * type is kept); the contacts list and `metadata` sent replace the current ones whole.
 * `customer_reference_id` is not in Orum's PATCH and is taken here
 * (docs/decisions.md#patch-takes-the-customer-reference-id). `{}` changes nothing.
 */
export const patchPersonBody = withFieldCodes(
  z.strictObject({
    customer_reference_id: documented(kept(text(1, 255)), {
      description:
        'Not in Orum’s PATCH: a new customer reference id, unique per tenant (`409 duplicate_customer_reference_id`).',
    }),
    first_name: kept(name),
    middle_name: z.optional(middleName),
    last_name: kept(name),
    date_of_birth: z.optional(z.nullable(dateOfBirth)),
    social_security_number: z.optional(z.nullable(socialSecurityNumber)),
    addresses: removable(
      z
        .array(addressChange, { error: 'must be a list holding one address' })
        .check(z.maxLength(1, 'must hold one address at most')),
    ),
    contacts: removable(contactList(contactChange, 0)),
    metadata: z.optional(z.nullable(metadata)),
  }),
  PERSON_FIELD_CODES,
);
export type PatchPersonBody = z.output<typeof patchPersonBody>;

/** The `id` filter answers Orum's documented `invalid_orum_id`, given twice included. */
const personIdFilter = idFilter('invalid_orum_id', 'must be one person id (a UUID)');

/**
 * Orum's UsBankAccountNumber: 4 to 17 digits, single hyphens between them. The persons
 * list takes it as Orum's filter; a person here carries no bank account, so no person has
 * one (docs/decisions.md#the-persons-account-number-filter-matches-no-one).
 */
const accountNumberFilter = z.pipe(once(), accountNumberText());

/** GET /persons. */
export const listPersonsQuery = withFieldCodes(
  listQuery({
    id: z.optional(personIdFilter),
    account_number: z.optional(accountNumberFilter),
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
