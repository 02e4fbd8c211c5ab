import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { Cipher, CipherContext } from './cipher';

/** AWS mode: KMS symmetric key, the record's owner as encryption context. */
export class KmsCipher implements Cipher {
  constructor(
    private readonly kms: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, context: CipherContext): Promise<string> {
    const out = await this.kms.send(
      new EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: context }),
    );
    if (!out.CiphertextBlob) throw new Error('KMS returned no ciphertext');
    return `kms:${Buffer.from(out.CiphertextBlob).toString('base64')}`;
  }

  async decrypt(ciphertext: string, context: CipherContext): Promise<string> {
    if (!ciphertext.startsWith('kms:')) throw new Error('not a KMS ciphertext');
    const out = await this.kms.send(
      new DecryptCommand({
        KeyId: this.keyId,
        CiphertextBlob: Buffer.from(ciphertext.slice(4), 'base64'),
        EncryptionContext: context,
      }),
    );
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(out.Plaintext).toString('utf8');
  }
}
