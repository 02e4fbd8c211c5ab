import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { ListPositions } from '../list-positions/index';
import { BankWaitRepository } from './bank-waits';
import { AccountList } from './list';
import { VerifyAccountRepository } from './repository';

export type { BankWait, DueWait } from './bank-waits';
export { BankWaitRepository } from './bank-waits';
export type { AccountListFilter } from './list';
export { AccountList } from './list';
export type { VerificationResult } from './repository';
export { VerifyAccountRepository } from './repository';

/** The verify account repository on the service's table; tests and the local runtime may replace it. */
export const verifyAccounts = /* @__PURE__ */ port(
  'verifyAccounts',
  () => new VerifyAccountRepository(documentClient(), tableName()),
);

/** The accounts list, on the repository and the list's positions. */
export const accountList = /* @__PURE__ */ port(
  'accountList',
  () => new AccountList(verifyAccounts(), new ListPositions(documentClient(), tableName())),
);

/** Checks sent over the rails and not answered yet. */
export const bankWaits = /* @__PURE__ */ port('bankWaits', () => new BankWaitRepository(documentClient(), tableName()));

declare module '#shared/dependencies' {
  interface Dependencies {
    bankWaits: BankWaitRepository;
    verifyAccounts: VerifyAccountRepository;
    accountList: AccountList;
  }
}
