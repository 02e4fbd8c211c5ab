import * as z from 'zod/mini';
import { CONTROL_STATUSES, DEBIT_STATUSES, OWNERSHIP_STATUSES, VERIFICATION_STATUSES } from '#domain/verify-account';
import { dateTime, endAfterStart, idFilter, many, once } from '#shared/list-filters';
import { listQuery } from '#shared/list-query';
import { accountNumber } from './request-schemas';

// The query of `GET /verify/accounts` (docs/api.md#lists), apart from the bodies
// (request-schemas.ts) so that the routes that create or verify an account bundle no list
// filters.

/** The `id` filter answers Orum's documented `invalid_account_id`, given twice included. */
const accountIdFilter = idFilter('invalid_account_id', 'must be one verify account id (a UUID)');

export const listVerifyAccountsQuery = listQuery({
  id: z.optional(accountIdFilter),
  start_time: z.optional(dateTime),
  end_time: z.optional(dateTime),
  account_number: z.optional(z.pipe(once(), accountNumber)),
  verification_status: z.optional(many(VERIFICATION_STATUSES)),
  ownership_status: z.optional(many(OWNERSHIP_STATUSES)),
  control_status: z.optional(many(CONTROL_STATUSES)),
  debit_status: z.optional(many(DEBIT_STATUSES)),
}).check(endAfterStart);
