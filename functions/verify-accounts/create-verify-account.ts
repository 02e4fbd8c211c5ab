import { randomUUID } from 'node:crypto';
import { newVerifyAccount, ownershipSecretContext, type VerifyAccount } from '#domain/verify-account';
import { cipher } from '#shared/cipher/index';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { now } from '#shared/dependencies';
import { metrics } from '#shared/metrics';
import type { CreateVerifyAccountBody } from './request-schemas';

/**
 * Starting a verification: the only use case that encrypts, so the only function that
 * bundles the KMS client. The SSN or tax id is encrypted before anything is stored.
 */
export async function createVerifyAccount(tenant: string, body: CreateVerifyAccountBody): Promise<VerifyAccount> {
  const at = now();
  const account = newVerifyAccount({ ...body, id: randomUUID(), tenant }, at);
  const secret = body.person?.ssn ?? body.business?.tax_id;
  const ciphertext = secret === undefined ? undefined : await cipher().encrypt(secret, ownershipSecretContext(account));
  await verifyAccounts().create(account, ciphertext, at);
  metrics().count('VerificationCreated');
  return account;
}
