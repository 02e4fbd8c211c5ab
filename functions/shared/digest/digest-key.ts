import { createHmac } from 'node:crypto';

/**
 * What a digest is of. Each kind is its own label in the MAC's input, so one value digested
 * as two kinds (an account number also sent as an `Idempotency-Key`) gives two unrelated
 * digests: a table reader cannot even tell that they are equal.
 */
export type DigestKind =
  | 'idempotency-key'
  | 'request'
  | 'account-number'
  | 'verification-slot'
  | 'customer-reference'
  | 'statement-code';

/** The encryption context of the digest key's ciphertext (`kms:EncryptionContext:purpose`). */
export const DIGEST_KEY_CONTEXT = { purpose: 'digest-key' } as const;

/** The digest key's length: 32 random bytes (KMS `AES_256`). */
export const DIGEST_KEY_BYTES = 32;

/**
 * The service's one digest key (docs/data-model.md#digests): every digest of a secret or of
 * PII the service stores (in a key or an item) is an HMAC-SHA-256 under it, so someone who
 * can read the table, its stream or a backup, but not the key, cannot confirm a guess (an
 * SSN has 10^9 candidates, a statement code 36^4). The key is there at once when given as
 * bytes (local mode, tests), or after `ready()` when it has to be fetched first (AWS: KMS
 * decrypts its ciphertext once per container); `digest` stays synchronous so key builders
 * do too.
 */
export class DigestKey {
  private key: Buffer | undefined;
  private loading: Promise<void> | undefined;
  private readonly load: (() => Promise<Buffer>) | undefined;

  constructor(source: Buffer | (() => Promise<Buffer>)) {
    if (Buffer.isBuffer(source)) this.key = checked(source);
    else this.load = source;
  }

  /** Fetches the key once; a failed fetch is tried again by the next call. */
  ready(): Promise<void> {
    if (this.key || !this.load) return Promise.resolve();
    const load = this.load;
    this.loading ??= load().then(
      (key) => {
        this.key = checked(key);
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /** HMAC-SHA-256 of `kind` and `value` under the key, in hex (64 characters). */
  digest(kind: DigestKind, value: string): string {
    if (!this.key) throw new Error('the digest key is not loaded: an entry point must await ready() first');
    return createHmac('sha256', this.key).update(`${kind}\n${value}`, 'utf8').digest('hex');
  }
}

function checked(key: Buffer): Buffer {
  if (key.length !== DIGEST_KEY_BYTES) throw new Error(`the digest key must be ${DIGEST_KEY_BYTES} bytes`);
  return key;
}
