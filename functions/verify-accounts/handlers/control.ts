import { httpHandler } from '#shared/http/handler';
import { accountIdParams } from '../path-params';
import { presentAccount } from '../present';
import { controlBody } from '../request-schemas';
import { submitStatementCode } from '../submit-statement-code';

/** POST /verify/accounts/{id}/control — submits the statement code seen on the account statement. */
export const handler = httpHandler({ params: accountIdParams, body: controlBody }, async ({ tenant, params, body }) => {
  const account = await submitStatementCode(tenant, params.id, body.statement_code);
  return { body: { account: presentAccount(account) } };
});
