import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Cipher, CipherContext } from './cipher';

/**
 * Local mode: AES-256-GCM under a key held by the local runtime. The context is the
 * GCM additional data, so it binds the ciphertext to its owner as KMS does.
 */
export class LocalCipher implements Cipher {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    this.key = Buffer.from(keyBase64, 'base64');
    if (this.key.length !== 32) throw new Error('local cipher key must be 32 bytes (base64)');
  }

  async encrypt(plaintext: string, context: CipherContext): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `local:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  async decrypt(ciphertext: string, context: CipherContext): Promise<string> {
    if (!ciphertext.startsWith('local:')) throw new Error('not a local ciphertext');
    const raw = Buffer.from(ciphertext.slice(6), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

const aad = (context: Record<string, string>): Buffer =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b))), 'utf8');
