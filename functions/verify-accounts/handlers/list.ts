import { httpHandler } from '#shared/http/handler';
import { nextLink, pageRequestOf } from '#shared/http/pages';
import { presentAccount } from '../present';
import { listVerifyAccountsQuery } from '../query-schemas';
import { listVerifyAccounts } from '../read-verify-accounts';

/** GET /verify/accounts — newest first; `index` is the page number, `size` the page length; a
 * full page links the next by cursor. */
export const handler = httpHandler({ query: listVerifyAccountsQuery }, async ({ tenant, query }) => {
  const page = await listVerifyAccounts(
    tenant,
    {
      id: query.id,
      startTime: query.start_time,
      endTime: query.end_time,
      accountNumber: query.account_number,
      verificationStatus: query.verification_status,
      ownershipStatus: query.ownership_status,
      controlStatus: query.control_status,
      debitStatus: query.debit_status,
    },
    pageRequestOf(query),
  );
  return {
    body: { accounts: page.items.map(presentAccount) },
    headers: nextLink('/verify/accounts', query, page.next),
  };
});
