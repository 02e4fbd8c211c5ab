import { httpHandler } from '#shared/http/handler';
import { presentAccount } from './present';
import { createVerifyAccountBody } from './schemas';
import { createVerifyAccount } from './start-verification';

/** POST /verify/accounts — starts a verification; the account answers `pending` at once. */
export const handler = httpHandler({ body: createVerifyAccountBody }, async ({ tenant, body }) => {
  const account = await createVerifyAccount(tenant, body);
  return { body: { account: presentAccount(account) } };
});
