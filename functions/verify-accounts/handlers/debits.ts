import type { VerifyAccount } from '#domain/verify-account';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { emptyBody } from '#shared/input-schemas';
import { accountIdParams } from '../path-params';
import { presentAccount } from '../present';
import { recheckDebits } from '../recheck-debits';

const answer = (account: VerifyAccount): Reply => ({ body: { account: presentAccount(account) } });

/** POST /verify/accounts/{id}/debits — asks the bank again about debits; settled asynchronously. */
export const handler = httpHandler({ params: accountIdParams, body: emptyBody }, async ({ tenant, params, answers }) =>
  answer(await recheckDebits(tenant, params.id, answers?.of(answer))),
);
