import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { VerifyAccountRepository } from './repository';

export type { AccountListFilter, VerificationResult } from './repository';
export { VerifyAccountRepository } from './repository';

/** The verify account repository on the service's table; tests and the local runtime may replace it. */
export const verifyAccounts = /* @__PURE__ */ port(
  'verifyAccounts',
  () => new VerifyAccountRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    verifyAccounts: VerifyAccountRepository;
  }
}
