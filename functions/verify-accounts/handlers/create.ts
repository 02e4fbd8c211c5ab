import { httpHandler } from '#shared/http/handler';
import { createVerifyAccount } from '../create-verify-account';
import { presentAccount } from '../present';
import { createVerifyAccountBody } from '../request-schemas';

/** POST /verify/accounts — starts a verification; the account answers `pending` at once. */
export const handler = httpHandler({ body: createVerifyAccountBody }, async ({ tenant, body, idempotency }) => {
  const account = await createVerifyAccount(tenant, body, idempotency);
  return { body: { account: presentAccount(account) } };
});
