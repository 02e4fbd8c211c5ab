/**
 * Encrypts the few values the service must hold but never show (SSNs, tax ids).
 * `context` binds a ciphertext to its owner (tenant and record id): a ciphertext copied
 * to another record does not decrypt.
 */
export interface Cipher {
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}
