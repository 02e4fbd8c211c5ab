import type { VerifyAccount } from '#domain/verify-account';
import { omitAbsent } from '#shared/present';

/**
 * The verify account as partners see it (docs/api.md#account-object). Fields that do not apply or are
 * not yet known are omitted, never null; SSNs, tax ids, the statement code and storage
 * details never leave.
 */
export function presentAccount(account: VerifyAccount) {
  return omitAbsent({
    id: account.id,
    created_at: account.created_at,
    updated_at: account.updated_at,
    type: account.type,
    account_number: account.account_number,
    routing_number: account.routing_number,
    account_holder_name: account.account_holder_name,
    email: account.email,
    sender_name: account.sender_name,
    verification_status: account.verification_status,
    status_reason: account.status_reason,
    ownership_status: account.ownership_status,
    person:
      account.person &&
      omitAbsent({
        first_name: account.person.first_name,
        last_name: account.person.last_name,
        phone_number: account.person.phone_number,
        first_name_match: account.person.first_name_match,
        last_name_match: account.person.last_name_match,
        phone_number_match: account.person.phone_number_match,
        ssn_match: account.person.ssn_match,
      }),
    business:
      account.business &&
      omitAbsent({
        business_name: account.business.business_name,
        phone_number: account.business.phone_number,
        business_name_match: account.business.business_name_match,
        phone_number_match: account.business.phone_number_match,
        tax_id_match: account.business.tax_id_match,
      }),
    control_status: account.control_status,
    debit_status: account.debit_status,
    debit_status_reason: account.debit_status_reason,
    estimated_verification_date: account.estimated_verification_date,
  });
}
