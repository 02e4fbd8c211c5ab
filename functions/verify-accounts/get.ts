import { httpHandler } from '#shared/http/handler';
import { getVerifyAccount } from './accounts';
import { accountIdParams } from './params';
import { presentAccount } from './present';

/** GET /verify/accounts/{id} — another tenant's id answers 404 like an unknown one. */
export const handler = httpHandler({ params: accountIdParams }, async ({ tenant, params }) => {
  const account = await getVerifyAccount(tenant, params.id);
  return { body: { account: presentAccount(account) } };
});
