import type * as z from 'zod/mini';
import type { Person } from '#domain/person';
import { omitAbsent } from '#shared/present';
import type { person as personObject } from './openapi-responses';

/**
 * The person as partners see it (docs/api.md#person-object): Orum's published shape, never
 * the SSN or storage details; fields that do not apply are omitted, and so are empty
 * `addresses`, `contacts` and `status_reasons`.
 */
export function presentPerson(person: Person): z.output<typeof personObject> {
  return omitAbsent({
    id: person.id,
    customer_reference_id: person.customer_reference_id,
    first_name: person.first_name,
    middle_name: person.middle_name,
    last_name: person.last_name,
    date_of_birth: person.date_of_birth,
    status: person.status,
    status_reasons: person.status_reasons?.map((r) => ({
      reason_code: r.reason_code,
      reason_code_message: r.reason_code_message,
    })),
    addresses: person.addresses?.map((a) =>
      omitAbsent({
        id: a.id,
        type: a.type,
        address1: a.address1,
        address2: a.address2,
        city: a.city,
        state: a.state,
        country: a.country,
        zip5: a.zip5,
        created_at: a.created_at,
        updated_at: a.updated_at,
      }),
    ),
    contacts: person.contacts?.map((c) => ({
      id: c.id,
      type: c.type,
      value: c.value,
      created_at: c.created_at,
      updated_at: c.updated_at,
    })),
    metadata: person.metadata,
    created_at: person.created_at,
    updated_at: person.updated_at,
    closed_at: person.closed_at,
  });
}
