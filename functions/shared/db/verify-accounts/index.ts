import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { BankWaitRepository } from './bank-waits';
import { VerifyAccountRepository } from './repository';

export type { BankWait, DueWait } from './bank-waits';
export { BankWaitRepository } from './bank-waits';
export type { AccountListFilter, VerificationResult } from './repository';
export { VerifyAccountRepository } from './repository';

/** The verify account repository on the service's table; tests and the local runtime may replace it. */
export const verifyAccounts = /* @__PURE__ */ port(
  'verifyAccounts',
  () => new VerifyAccountRepository(documentClient(), tableName()),
);

/** Checks sent over the rails and not answered yet. */
export const bankWaits = /* @__PURE__ */ port('bankWaits', () => new BankWaitRepository(documentClient(), tableName()));

declare module '#shared/dependencies' {
  interface Dependencies {
    bankWaits: BankWaitRepository;
    verifyAccounts: VerifyAccountRepository;
  }
}
