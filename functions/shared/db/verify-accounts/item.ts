import type { VerifyAccount } from '#domain/verify-account';
import { ENTITY } from '../entities';
import { withoutStorageFields } from '../items';
import { listShardOf } from '../shards';
import { accountKeys } from './keys';

/** Stored beside the account until the ownership result is: the SSN or tax id ciphertext. */
const ACCOUNT_STORAGE_ONLY = ['ownership_secret'] as const;

/** The domain's account from a stored item (or a stream image). */
export function toAccount(item: Record<string, unknown>): VerifyAccount {
  return withoutStorageFields(item, ACCOUNT_STORAGE_ONLY) as unknown as VerifyAccount;
}

/** The account's list partition: its tenant, its verification status, its shard (written again when the status changes). */
export const accountListPartition = (account: Pick<VerifyAccount, 'tenant' | 'id' | 'verification_status'>): string =>
  accountKeys.list(account.tenant, account.verification_status, listShardOf(account.tenant, account.id));

/** A new account as stored: its key, both list index entries and the account. */
export function accountItem(account: VerifyAccount): Record<string, unknown> {
  const order = accountKeys.order(account.created_at, account.id);
  return {
    ...accountKeys.account(account.tenant, account.id),
    entity: ENTITY.verifyAccount,
    gsi1pk: accountListPartition(account),
    gsi1sk: order,
    gsi2pk: accountKeys.byAccountNumber(account.tenant, account.account_number),
    gsi2sk: order,
    ...account,
  };
}
