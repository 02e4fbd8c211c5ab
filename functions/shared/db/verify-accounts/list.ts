import type {
  ControlStatus,
  DebitStatus,
  OwnershipStatus,
  VerificationStatus,
  VerifyAccount,
} from '#domain/verify-account';
import type { IndexQuery } from '../paging';
import { accountKeys } from './keys';

/**
 * What `GET /verify/accounts` filters on, and the index walk that serves it (patterns 2
 * and 3 of docs/data-model.md): the tenant's accounts, or those with one account number.
 */
export interface AccountListFilter {
  id?: string;
  /** Inclusive lower bound of `created_at` (RFC 3339, UTC, ms). */
  startTime?: string;
  /** Exclusive upper bound of `created_at`. */
  endTime?: string;
  accountNumber?: string;
  verificationStatus?: VerificationStatus[];
  ownershipStatus?: OwnershipStatus[];
  controlStatus?: ControlStatus[];
  debitStatus?: DebitStatus[];
}

const STATUS_FILTERS = [
  ['verificationStatus', 'verification_status'],
  ['ownershipStatus', 'ownership_status'],
  ['controlStatus', 'control_status'],
  ['debitStatus', 'debit_status'],
] as const;

export function accountListQuery(tenant: string, filter: AccountListFilter): IndexQuery {
  return {
    index: filter.accountNumber ? 'byLookup' : 'byTenant',
    partition: filter.accountNumber
      ? accountKeys.byAccountNumber(tenant, filter.accountNumber)
      : accountKeys.byTenant(tenant),
    from: filter.startTime,
    before: filter.endTime,
    anyOf: Object.fromEntries(STATUS_FILTERS.map(([param, attribute]) => [attribute, filter[param]])),
  };
}

/** Whether one account passes the filter (the `id` filter reads the account by key instead of the index). */
export function matchesFilter(account: VerifyAccount, filter: AccountListFilter): boolean {
  if (filter.startTime && account.created_at < filter.startTime) return false;
  if (filter.endTime && account.created_at >= filter.endTime) return false;
  if (filter.accountNumber && account.account_number !== filter.accountNumber) return false;
  return STATUS_FILTERS.every(([param, attribute]) => {
    const wanted = filter[param] as string[] | undefined;
    return !wanted?.length || wanted.includes(account[attribute] as string);
  });
}
