import type { VerifyAccount } from '#domain/verify-account';
import { ENTITY } from '../entities';
import { withoutStorageFields } from '../items';
import { accountKeys } from './keys';

/** Stored beside the account until the ownership result is: the SSN or tax id ciphertext. */
const ACCOUNT_STORAGE_ONLY = ['ownership_secret'] as const;

/** The domain's account from a stored item (or a stream image). */
export function toAccount(item: Record<string, unknown>): VerifyAccount {
  return withoutStorageFields(item, ACCOUNT_STORAGE_ONLY) as unknown as VerifyAccount;
}

/** A new account as stored: its key, both list index entries and the account. */
export function accountItem(account: VerifyAccount): Record<string, unknown> {
  const order = accountKeys.order(account.created_at, account.id);
  return {
    ...accountKeys.account(account.tenant, account.id),
    entity: ENTITY.verifyAccount,
    gsi1pk: accountKeys.byTenant(account.tenant),
    gsi1sk: order,
    gsi2pk: accountKeys.byAccountNumber(account.tenant, account.account_number),
    gsi2sk: order,
    ...account,
  };
}
