import { httpHandler } from '#shared/http/handler';
import { emptyBody } from '#shared/input-schemas';
import { accountIdParams } from '../path-params';
import { presentAccount } from '../present';
import { recheckDebits } from '../recheck-debits';

/** POST /verify/accounts/{id}/debits — asks the bank again about debits; settled asynchronously. */
export const handler = httpHandler({ params: accountIdParams, body: emptyBody }, async ({ tenant, params }) => {
  const account = await recheckDebits(tenant, params.id);
  return { body: { account: presentAccount(account) } };
});
