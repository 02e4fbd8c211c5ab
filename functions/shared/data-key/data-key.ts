import { ENV } from '#shared/config';

// The service's data keys: 32 random bytes each, generated once by KMS under the cipher key
// at the first deploy (lib/constructs/data-key.ts) and decrypted once per warm container,
// so that using them costs no KMS call per request. The purpose names the key in the
// encryption context of its ciphertext (`kms:EncryptionContext:purpose`), and a function
// can decrypt only the keys its row in lib/service/ names.
// - `digest-key`: the HMAC key of every digest of a secret or of PII (functions/shared/digest/);
// - `field-key`: the AES-256-GCM key that seals account numbers in stored items
//   (functions/shared/field-cipher/).

export type DataKeyPurpose = 'digest-key' | 'field-key';

/** Where each data key lives, the same in the CDK app (lib/) and in the functions. */
export interface DataKeySpec {
  readonly purpose: DataKeyPurpose;
  /** For messages and descriptions: "the digest key". */
  readonly name: string;
  /** CloudFormation type of its custom resource; its generator derives the purpose from it. */
  readonly resourceType: `Custom::${string}`;
  /** Its base64 KMS ciphertext (AWS mode), on the functions that hold it. */
  readonly ciphertextEnv: string;
  /** Its base64 bytes (local mode). */
  readonly localEnv: string;
  /**
   * The constant the CDK defines in each bundle (`ServiceFunction`): true in the bundles of
   * the functions that hold the key, the only ones that then carry the KMS client to load it.
   */
  readonly bundleConstant: string;
}

export const DATA_KEYS: Readonly<Record<DataKeyPurpose, DataKeySpec>> = {
  'digest-key': {
    purpose: 'digest-key',
    name: 'digest key',
    resourceType: 'Custom::DigestKey',
    ciphertextEnv: ENV.digestKeyCiphertext,
    localEnv: ENV.localDigestKey,
    bundleConstant: 'DIGEST_KEY_IN_BUNDLE',
  },
  'field-key': {
    purpose: 'field-key',
    name: 'field key',
    resourceType: 'Custom::FieldKey',
    ciphertextEnv: ENV.fieldKeyCiphertext,
    localEnv: ENV.localFieldKey,
    bundleConstant: 'FIELD_KEY_IN_BUNDLE',
  },
};

/** Every data key's length: 32 random bytes (KMS `AES_256`). */
export const DATA_KEY_BYTES = 32;

/** What a data key is made from: its bytes (local mode, tests), or a fetch of them (AWS: KMS). */
export type DataKeySource = Buffer | (() => Promise<Buffer>);

/**
 * One data key in a function: there at once when given as bytes, or after `ready()` when
 * it has to be fetched first, so that what uses it (an HMAC, a field's seal) stays
 * synchronous once an entry point has awaited `ready()` (functions/shared/invocation.ts).
 */
export class DataKey {
  private bytes: Buffer | undefined;
  private loading: Promise<void> | undefined;
  private readonly load: (() => Promise<Buffer>) | undefined;

  constructor(
    readonly spec: DataKeySpec,
    source: DataKeySource,
  ) {
    if (Buffer.isBuffer(source)) this.bytes = this.checked(source);
    else this.load = source;
  }

  /** Fetches the key once; a failed fetch is tried again by the next call. */
  ready(): Promise<void> {
    if (this.bytes || !this.load) return Promise.resolve();
    const load = this.load;
    this.loading ??= load().then(
      (bytes) => {
        this.bytes = this.checked(bytes);
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /** The key's bytes; throws before `ready()` has fetched them. */
  protected key(): Buffer {
    if (!this.bytes) {
      throw new Error(`the ${this.spec.name} is not loaded: an entry point must await ready() first`);
    }
    return this.bytes;
  }

  private checked(bytes: Buffer): Buffer {
    if (bytes.length !== DATA_KEY_BYTES) throw new Error(`the ${this.spec.name} must be ${DATA_KEY_BYTES} bytes`);
    return bytes;
  }
}
