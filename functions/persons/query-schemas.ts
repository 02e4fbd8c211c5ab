import * as z from 'zod/mini';
import { PERSON_STATUSES } from '#domain/person';
import { accountNumberText, text } from '#shared/input-schemas';
import { dateTime, endAfterStart, idFilter, many, once } from '#shared/list-filters';
import { listQuery } from '#shared/list-query';
import { withFieldCodes } from '#shared/validation';

// The query of `GET /persons` (docs/api.md#lists), apart from the bodies (request-schemas.ts)
// so that the routes that write a person bundle no list filters.

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
