import * as z from 'zod/mini';
import { ADDRESS_TYPES, CONTACT_TYPES, PERSON_STATUSES, REASON_CODES } from '#domain/person';
import { id, oneOf, timestamp } from '#shared/openapi-responses';

// What the person routes answer (docs/api.md#person-object), with the names of Orum's
// persons API; the presenter (present.ts) builds it. Not imported by handlers: see
// #shared/openapi-responses.

const personStatus = oneOf(PERSON_STATUSES, 'Status of the person (docs/api.md#person-lifecycle).');

export const statusReason = z
  .strictObject({
    reason_code: oneOf(REASON_CODES as unknown as [string, ...string[]], 'Why identification failed.'),
    reason_code_message: z.string().check(z.describe('Text that may be shown to the end user.')),
  })
  .check(z.describe('Why a person is rejected or restricted.'));

const postalAddress = z
  .strictObject({
    id: id(),
    type: oneOf(ADDRESS_TYPES, 'Type of address; always `home` for a person.'),
    address1: z.string(),
    address2: z.optional(z.string()),
    city: z.string(),
    state: z.string().check(z.regex(/^[A-Z]{2}$/)),
    country: z.enum(['US']),
    zip5: z.string().check(z.regex(/^\d{5}$/)),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .check(z.describe('A postal address of the person.'));

export const contact = z
  .strictObject({
    id: id(),
    type: oneOf(CONTACT_TYPES, 'Kind of contact.'),
    value: z.string().check(z.describe('The email address, or the phone number, as sent.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .check(z.describe('A contact of the person.'));

export const person = z
  .strictObject({
    id: id(),
    customer_reference_id: z.string(),
    first_name: z.string(),
    middle_name: z.optional(z.string()),
    last_name: z.string(),
    date_of_birth: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
    status: personStatus,
    status_reasons: z.optional(z.array(statusReason).check(z.minLength(1))),
    addresses: z.optional(z.array(postalAddress).check(z.length(1))),
    contacts: z.optional(z.array(contact).check(z.minLength(1), z.maxLength(2))),
    metadata: z.optional(
      z
        .record(z.string(), z.unknown())
        .check(z.describe('The partner’s JSON object, as sent (at most 5 keys; each value at most 50 characters).')),
    ),
    created_at: timestamp(),
    updated_at: timestamp(),
    closed_at: z.optional(timestamp()),
  })
  .check(
    z.describe(
      'A person. Never the SSN. Fields that do not apply are absent (never null), and so are empty lists. Enums grow: accept unknown values.',
    ),
  );

export const personResponse = z.strictObject({ person });
export const personsResponse = z.strictObject({
  persons: z.array(person).check(z.describe('One page, newest first.')),
});

/** Named schemas of the OpenAPI document's components (Orum's names). */
export const PERSON_COMPONENTS = {
  PersonResponseBase: person,
  PersonResponse: personResponse,
  PersonsResponse: personsResponse,
  PersonStatus: personStatus,
  StatusReason: statusReason,
  PostalAddressResponse: postalAddress,
  ContactResponsePerson: contact,
};
