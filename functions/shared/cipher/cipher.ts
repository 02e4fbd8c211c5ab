import type { DataKeyPurpose } from '../data-key/data-key';

/**
 * What a ciphertext under the cipher key protects, named in its encryption context
 * (`purpose`). Each function's grant is confined to the purposes its row declares
 * (`kms:EncryptionContext:purpose`): a role that reads webhook secrets cannot decrypt an SSN.
 * - `ssn`: a person's SSN, until identification no longer needs it;
 * - `ownership`: the SSN or tax id an account-ownership check compares;
 * - `webhook_signing_secret`: a tenant's webhook signing secrets;
 * - `digest-key`, `field-key`: the data keys (functions/shared/data-key/), each decrypted
 *   once per container.
 */
export type CipherPurpose = 'ssn' | 'ownership' | 'webhook_signing_secret' | DataKeyPurpose;

/** An encryption context: the record's owner (tenant and record id) and, always, its purpose. */
export type CipherContext = Readonly<Record<string, string>> & { readonly purpose: CipherPurpose };

/**
 * Encrypts the few values the service must hold but never show (SSNs, tax ids).
 * `context` binds a ciphertext to its owner (tenant and record id): a ciphertext copied
 * to another record does not decrypt; and to its purpose, which the caller's grant must
 * allow.
 */
export interface Cipher {
  encrypt(plaintext: string, context: CipherContext): Promise<string>;
  decrypt(ciphertext: string, context: CipherContext): Promise<string>;
}
