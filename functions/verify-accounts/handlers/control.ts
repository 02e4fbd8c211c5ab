import type { VerifyAccount } from '#domain/verify-account';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { accountIdParams } from '../path-params';
import { presentAccount } from '../present';
import { controlBody } from '../request-schemas';
import { submitStatementCode } from '../submit-statement-code';

const answer = (account: VerifyAccount): Reply => ({ body: { account: presentAccount(account) } });

/** POST /verify/accounts/{id}/control — submits the statement code seen on the account statement. */
export const handler = httpHandler(
  { params: accountIdParams, body: controlBody },
  async ({ tenant, params, body, answers }) => {
    const kept = answers && { account: answers.of(answer), error: answers.error };
    return answer(await submitStatementCode(tenant, params.id, body.statement_code, kept));
  },
);
