import * as z from 'zod/mini';
import { parseCalendarDate } from '#domain/identification';
import {
  CONTACT_TYPES,
  isMetadataValue,
  MAX_METADATA_KEY_CHARS,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_CHARS,
  type MetadataValue,
} from '#domain/person';
import { chars, documented, personNameText, string, text } from '#shared/input-schemas';
import { STORABLE_KEY_NAMES, STORABLE_KEY_RULE, STORABLE_NUMBER_RULE, storableJson } from '#shared/storable-json';

// The person's field schemas, from which the bodies of the person endpoints (request-schemas.ts)
// are built: Orum's rules and error codes per field (docs/api.md#persons). Messages state
// the rule and never echo the value (it may be an SSN). The building blocks every area
// shares are in #shared/input-schemas.

export const name = personNameText(1);

/** Orum's middle name may be empty; an empty one is no middle name (left out, or removed by PATCH). */
export const middleName = z.pipe(
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
export const dateOfBirth = documented(
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
export const socialSecurityNumber = z.pipe(
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
export const addresses = z
  .array(address, { error: 'must be a list holding one address' })
  .check(z.length(1, 'must hold exactly one address'));

/**
 * PATCH's address, as Orum's PersonPatchPostalAddressRequest: `type` and the fields that
 * change, merged into the stored home address; an empty or null address2 removes it.
 * Without a stored address, the merged one must be complete (person-data.ts).
 */
export const addressChange = z.strictObject(
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
/** `validEmail` as JSON Schema: a contact is a phone, or its value (when sent) is an email address. */
const EMAIL_VALUE = {
  anyOf: [
    { properties: { type: { const: 'phone' } } },
    { properties: { value: { format: 'email', pattern: emailAddress._zod.def.pattern?.source } } },
  ],
};
export const contact = documented(
  z.strictObject({ type: contactType, value: text(1, 255) }, { error: 'must be a contact object' }).check(validEmail),
  EMAIL_VALUE,
);
/** PATCH's contact, as Orum's PatchContactRequestPerson: without `value`, the stored contact of its type. */
export const contactChange = documented(
  z
    .strictObject({ type: contactType, value: z.optional(text(1, 255)) }, { error: 'must be a contact object' })
    .check(validEmail),
  EMAIL_VALUE,
);

/** An address and a contact as a body gives them, PATCH's included (the create body's are narrower). */
export type AddressChange = z.output<typeof addressChange>;
export type ContactChange = z.output<typeof contactChange>;

/** Up to 2 contacts of any types, as Orum (two emails, two phones). */
export const contactList = <C extends z.core.$ZodType>(item: C, min: number) =>
  z
    .array(item, { error: 'must be a list of contacts' })
    .check(z.minLength(min, `must hold ${min} to 2 contacts`), z.maxLength(2, `must hold ${min} to 2 contacts`));

/**
 * Any JSON object, as Orum, within Orum's published bounds (`isMetadataValue`), that
 * DynamoDB stores as sent (#shared/storable-json, as a test event's `data`): the guard sees
 * the object as parsed, before the record rebuilds it and a `__proto__` key is lost. Its
 * depth bound only stops the walk early: 50 characters of JSON nest at most 25 levels.
 */
const METADATA_VALUE_RULE = `values must be strings of at most ${MAX_METADATA_VALUE_CHARS} characters, or other JSON values of at most ${MAX_METADATA_VALUE_CHARS} characters written as JSON`;
const metadataValue = documented(z.custom<MetadataValue>(isMetadataValue, { message: METADATA_VALUE_RULE }), {
  description: `Any JSON value: a string of at most ${MAX_METADATA_VALUE_CHARS} characters, or another JSON value of at most ${MAX_METADATA_VALUE_CHARS} characters written as JSON (${STORABLE_NUMBER_RULE}; ${STORABLE_KEY_RULE}).`,
});
const KEY_RULE = `keys must be 1 to ${MAX_METADATA_KEY_CHARS} characters`;
const MAX_METADATA_DEPTH = 1 + MAX_METADATA_VALUE_CHARS / 2;
export const metadata = documented(
  z.pipe(
    storableJson(MAX_METADATA_DEPTH),
    z
      .record(z.string().check(chars(1, MAX_METADATA_KEY_CHARS, 'keys must be')), metadataValue, {
        error: (issue) => (issue.code === 'invalid_key' ? KEY_RULE : 'must be an object'),
      })
      .check(z.refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `may hold at most ${MAX_METADATA_KEYS} keys`)),
  ),
  {
    maxProperties: MAX_METADATA_KEYS,
    propertyNames: { ...STORABLE_KEY_NAMES, maxLength: MAX_METADATA_KEY_CHARS },
  },
);

/**
 * Nested fields answer Orum's codes: `addresses.0.city` → `missing_city` / `invalid_city`.
 * Anything else inside a list (the list itself, an item that is not an object) answers
 * the list's code, `invalid_addresses` / `invalid_contacts`.
 */
export const PERSON_FIELD_CODES = {
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
export const omittable = <T extends z.core.$ZodType>(schema: T) => z.optional(z.nullable(schema));

/** A required field may be changed by PATCH but never removed. */
export const kept = <T extends z.core.$ZodType>(schema: T) =>
  z.optional(
    z.pipe(
      z.unknown().check(z.refine((v) => v !== null, { message: 'is required and cannot be removed', abort: true })),
      schema,
    ),
  );

/** Orum allows an empty list in PATCH; it removes, as `null` does. */
export const removable = <T extends z.core.$ZodType<unknown[]>>(list: T) =>
  z.optional(
    z.pipe(
      z.nullable(list),
      z.transform((v) => (v === null || v.length === 0 ? null : v)),
    ),
  );

/** Leaves out the keys whose value is absent (`null` or `undefined`), so the output has no nulls. */
export function withoutAbsent<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}
