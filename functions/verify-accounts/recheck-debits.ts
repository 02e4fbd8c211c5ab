import type { VerifyAccount } from '#domain/verify-account';
import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { retryOnConflict } from '#shared/db/retry';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import { getVerifyAccount } from './read-verify-accounts';

/**
 * `POST /verify/accounts/{id}/debits` (docs/api.md#debits): the bank is asked again
 * whether the account takes debits. `debit_status` returns to `pending` at once, the
 * pipeline settles it (an event on the change), and the request takes one of the bank
 * account's 5 verifications per 24 h. While a debit check is already pending there is
 * nothing to restart: the account is answered unchanged and no slot is taken. With `keep`
 * (HandlerRequest.answers) the request's answer is written with the restart.
 */
export function recheckDebits(tenant: string, id: string, keep?: KeepAnswer<VerifyAccount>): Promise<VerifyAccount> {
  return retryOnConflict(
    async () => {
      const account = await getVerifyAccount(tenant, id);
      if (account.debit_status === 'pending') return account;
      return verifyAccounts().restartDebitCheck(account, now(), keep);
    },
    { attempts: 5, jitterMs: 20 },
  );
}
