import { newVerifyAccount, ownershipSecretContext, type VerifyAccount } from '#domain/verify-account';
import { cipher } from '#shared/cipher/index';
import { createUnder } from '#shared/created-id';
import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import type { HandlerRequest } from '#shared/http/types';
import { metrics } from '#shared/metrics';
import type { CreateVerifyAccountBody } from './request-schemas';

/**
 * Starting a verification: the only use case that encrypts, so the only function that
 * bundles the KMS client. The SSN or tax id is encrypted before anything is stored. With an
 * `Idempotency-Key`, the account's id comes from the key (`request`) and the request's
 * answer is written with the account (`keep`, HandlerRequest.answers).
 */
export async function createVerifyAccount(
  tenant: string,
  body: CreateVerifyAccountBody,
  request?: HandlerRequest['idempotency'],
  keep?: KeepAnswer<VerifyAccount>,
): Promise<VerifyAccount> {
  const at = now();
  return createUnder(request, async (id, fingerprint) => {
    const account = newVerifyAccount({ ...body, id, tenant }, at);
    const secret = body.person?.ssn ?? body.business?.tax_id;
    const ciphertext =
      secret === undefined ? undefined : await cipher().encrypt(secret, ownershipSecretContext(account));
    const stored = await verifyAccounts().create(account, ciphertext, at, { fingerprint, keep });
    // A retry of a create whose answer was lost answers what that create made.
    if (stored === account) metrics().count('VerificationCreated');
    return stored;
  });
}
