import type { VerifyAccount } from '#domain/verify-account';
import { type FieldOwner, openFields, sealFields } from '#shared/field-cipher/index';
import { ENTITY } from '../entities';
import { withoutStorageFields } from '../items';
import { listShardOf } from '../shards';
import { accountKeys } from './keys';

/** Stored beside the account until the ownership result is: the SSN or tax id ciphertext. */
const ACCOUNT_STORAGE_ONLY = ['ownership_secret'] as const;

/** The document name sealed values of an account item are placed under (docs/data-model.md#field-encryption). */
const SEALED_ROOT = 'verify_account';

/** Whose an account's sealed values are: its tenant and id. */
const ownerOf = (account: Pick<VerifyAccount, 'tenant' | 'id'>): FieldOwner => ({
  tenant: account.tenant,
  record: account.id,
});

/**
 * The domain's account from a stored item (or a stream image), its account number opened:
 * the domain and the presenters see the plain number, the table only its sealed form.
 */
export function toAccount(item: Record<string, unknown>): VerifyAccount {
  const account = withoutStorageFields(item, ACCOUNT_STORAGE_ONLY) as unknown as VerifyAccount;
  return openFields(account, ownerOf(account), SEALED_ROOT);
}

/** The account's list partition: its tenant, its verification status, its shard (written again when the status changes). */
export const accountListPartition = (account: Pick<VerifyAccount, 'tenant' | 'id' | 'verification_status'>): string =>
  accountKeys.list(account.tenant, account.verification_status, listShardOf(account.tenant, account.id));

/** A new account as stored: its key, both list index entries and the account, its account number sealed. */
export function accountItem(account: VerifyAccount): Record<string, unknown> {
  const order = accountKeys.order(account.created_at, account.id);
  return {
    ...accountKeys.account(account.tenant, account.id),
    entity: ENTITY.verifyAccount,
    gsi1pk: accountListPartition(account),
    gsi1sk: order,
    gsi2pk: accountKeys.byAccountNumber(account.tenant, account.account_number),
    gsi2sk: order,
    ...sealFields(account, ownerOf(account), SEALED_ROOT),
  };
}
