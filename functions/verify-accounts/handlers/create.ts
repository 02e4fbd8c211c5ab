import type { VerifyAccount } from '#domain/verify-account';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { createVerifyAccount } from '../create-verify-account';
import { presentAccount } from '../present';
import { createVerifyAccountBody } from '../request-schemas';

const answer = (account: VerifyAccount): Reply => ({ body: { account: presentAccount(account) } });

/** POST /verify/accounts — starts a verification; the account answers `pending` at once. */
export const handler = httpHandler({ body: createVerifyAccountBody }, async ({ tenant, body, idempotency, answers }) =>
  answer(await createVerifyAccount(tenant, body, idempotency, answers?.of(answer))),
);
