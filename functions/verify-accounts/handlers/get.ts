import { httpHandler } from '#shared/http/handler';
import { accountIdParams } from '../path-params';
import { presentAccount } from '../present';
import { getVerifyAccount } from '../read-verify-accounts';

/** GET /verify/accounts/{id} — another tenant's id answers 404 like an unknown one. */
export const handler = httpHandler({ params: accountIdParams }, async ({ tenant, params }) => {
  const account = await getVerifyAccount(tenant, params.id);
  return { body: { account: presentAccount(account) } };
});
