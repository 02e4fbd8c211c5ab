import * as z from 'zod/mini';
import {
  CONTROL_STATUSES,
  DEBIT_STATUS_REASONS,
  DEBIT_STATUSES,
  MATCH_RESULTS,
  OWNERSHIP_STATUSES,
  STATUS_REASONS,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
} from '#domain/verify-account';
import { id, oneOf, timestamp } from '#shared/openapi-responses';

// What the Verify routes answer (docs/api.md#account-object), as Orum's
// `VerifyAccountResponseBase` names it; the presenter (present.ts) builds it. Not imported by
// handlers: see #shared/openapi-responses.

/** As the request schemas take them (request-schemas.ts): the account echoes what was validated. */
const phoneNumber = () => z.string().check(z.regex(/^\+[1-9]\d{1,14}$/));

const matchResult = oneOf(MATCH_RESULTS, 'Result of an ownership comparison of one field.');

export const ownershipPerson = z
  .strictObject({
    first_name: z.string(),
    last_name: z.string(),
    phone_number: z.optional(phoneNumber()),
    first_name_match: z.optional(matchResult),
    last_name_match: z.optional(matchResult),
    phone_number_match: z.optional(matchResult),
    ssn_match: z.optional(matchResult),
  })
  .check(z.describe('The person sent for ownership, and once checked, a result per field sent. Never the SSN.'));

export const ownershipBusiness = z
  .strictObject({
    business_name: z.string(),
    phone_number: z.optional(phoneNumber()),
    business_name_match: z.optional(matchResult),
    phone_number_match: z.optional(matchResult),
    tax_id_match: z.optional(matchResult),
  })
  .check(z.describe('The business sent for ownership, and once checked, a result per field sent. Never the tax id.'));

export const verificationStatus = oneOf(VERIFICATION_STATUSES, 'Status of the account verification.');
export const ownershipStatus = oneOf(OWNERSHIP_STATUSES, 'Ownership summed up over the fields sent.');
export const controlStatus = oneOf(CONTROL_STATUSES, 'Status of the statement-code (control) verification.');
export const debitStatus = oneOf(DEBIT_STATUSES, 'Whether the account takes debits.');
const statusReason = oneOf(STATUS_REASONS, 'Why the account is closed, invalid or failed.');
const debitStatusReason = oneOf(DEBIT_STATUS_REASONS, 'Why debits are blocked or failed.');
const verificationType = oneOf(VERIFICATION_TYPES, 'What is checked; `status` when not given.');

export const verifyAccount = z
  .strictObject({
    id: id(),
    created_at: timestamp(),
    updated_at: timestamp(),
    type: verificationType,
    account_number: z.string().check(z.regex(/^\d{4,17}$/)),
    routing_number: z.string().check(z.regex(/^\d{9}$/)),
    account_holder_name: z.string(),
    email: z.optional(z.email()),
    sender_name: z.optional(z.string()),
    verification_status: verificationStatus,
    status_reason: z.optional(statusReason),
    ownership_status: z.optional(ownershipStatus),
    person: z.optional(ownershipPerson),
    business: z.optional(ownershipBusiness),
    control_status: z.optional(controlStatus),
    debit_status: debitStatus,
    debit_status_reason: z.optional(debitStatusReason),
    estimated_verification_date: z.iso
      .datetime({ precision: 3 })
      .check(z.describe('When the first result is expected: always midnight UTC; ignore the time.')),
  })
  .check(
    z.describe(
      'A verify account. A field that does not apply to its type, or is not known yet, is absent (never null). Enums grow: accept unknown values.',
    ),
  );

export const verifyAccountResponse = z.strictObject({ account: verifyAccount });
export const verifyAccountsResponse = z.strictObject({
  accounts: z.array(verifyAccount).check(z.describe('One page, newest first.')),
});

/** Named schemas of the OpenAPI document's components (Orum's names where Orum has them). */
export const VERIFY_ACCOUNT_COMPONENTS = {
  VerifyAccountResponseBase: verifyAccount,
  VerifyAccountResponse: verifyAccountResponse,
  VerifyAccountsResponse: verifyAccountsResponse,
  OwnershipPerson: ownershipPerson,
  OwnershipBusiness: ownershipBusiness,
  OwnershipResult: matchResult,
  VerifyAccountType: verificationType,
  VerificationStatus: verificationStatus,
  VerificationStatusReason: statusReason,
  OwnershipStatus: ownershipStatus,
  ControlStatus: controlStatus,
  DebitStatus: debitStatus,
  DebitStatusReason: debitStatusReason,
};
