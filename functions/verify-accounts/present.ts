import type { VerifyAccount } from '../domain/verify-account';

/**
 * The verify account as partners see it (SPEC.md §2.1). Fields that do not apply or are
 * not yet known are omitted, never null; SSNs, tax ids, the statement code and storage
 * details never leave.
 */
export function presentAccount(account: VerifyAccount) {
  return omitUndefined({
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
    person: account.person && omitUndefined({ ...account.person }),
    business: account.business && omitUndefined({ ...account.business }),
    control_status: account.control_status,
    debit_status: account.debit_status,
    debit_status_reason: account.debit_status_reason,
    estimated_verification_date: account.estimated_verification_date,
  });
}

export type PresentedAccount = ReturnType<typeof presentAccount>;

function omitUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
