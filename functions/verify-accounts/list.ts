import { pageWindow } from '#domain/pagination';
import { httpHandler } from '#shared/http/handler';
import { listVerifyAccounts } from './accounts';
import { presentAccount } from './present';
import { listVerifyAccountsQuery } from './schemas';

/** GET /verify/accounts — newest first; `index` is the page number, `size` the page length. */
export const handler = httpHandler({ query: listVerifyAccountsQuery }, async ({ tenant, query }) => {
  const accounts = await listVerifyAccounts(
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
    pageWindow(query.index, query.size),
  );
  return { body: { accounts: accounts.map(presentAccount) } };
});
