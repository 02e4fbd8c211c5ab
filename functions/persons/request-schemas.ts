import * as z from 'zod/mini';
import { documented, text } from '#shared/input-schemas';
import { withFieldCodes } from '#shared/validation';
import {
  addressChange,
  addresses,
  contact,
  contactChange,
  contactList,
  dateOfBirth,
  kept,
  metadata,
  middleName,
  name,
  omittable,
  PERSON_FIELD_CODES,
  removable,
  socialSecurityNumber,
  withoutAbsent,
} from './person-fields';

// Request schemas of the person endpoints (docs/api.md#persons, #lists), built from the
// field schemas of person-fields.ts. Error codes are the ones Orum's persons API
// documents, so a client written for Orum reads them: address and contact fields answer
// their own (`missing_city`, `invalid_contacts_value`), the status filter
// `invalid_person_status`, the id filter `invalid_orum_id`. The use cases take the types
// derived here (`z.output`), so a body and what a use case reads cannot disagree.

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
