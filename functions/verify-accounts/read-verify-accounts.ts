import type { VerifyAccount } from '#domain/verify-account';
import type { PageRequest } from '#shared/db/list-positions/index';
import { type AccountListFilter, accountList, verifyAccounts } from '#shared/db/verify-accounts/index';
import { NotFoundError } from '#shared/errors';

// Reading accounts: one by id, or a page of a filtered list (another tenant's id is unknown).

export async function getVerifyAccount(tenant: string, id: string): Promise<VerifyAccount> {
  const account = await verifyAccounts().get(tenant, id);
  if (!account) throw new NotFoundError('unknown_id', 'no verify account has this id');
  return account;
}

export async function listVerifyAccounts(tenant: string, filter: AccountListFilter, request: PageRequest) {
  return accountList().page(tenant, filter, request);
}
