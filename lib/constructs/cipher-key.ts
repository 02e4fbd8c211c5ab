import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { CipherPurpose } from '#shared/cipher/cipher';

/**
 * The condition that confines a grant on the cipher key to the given purposes of the
 * encryption context (`CipherPurpose`): KMS refuses a call whose context names another.
 */
export const purposeCondition = (purposes: readonly CipherPurpose[]) => ({
  StringEquals: { 'kms:EncryptionContext:purpose': purposes.length === 1 ? purposes[0] : [...purposes] },
});

export interface CipherKeyProps {
  /**
   * How long a scheduled deletion waits. The key guards every stored SSN and tax id, so a
   * deletion must be reversible for as long as KMS allows.
   * @default Duration.days(30)
   */
  readonly pendingWindow?: Duration;
}

/**
 * The customer-managed KMS key that encrypts SSNs and tax ids (and webhook signing
 * secrets, and the digest key) at the application level (`functions/shared/cipher/kms-cipher.ts`
 * calls KMS Encrypt/Decrypt directly, with the record's owner and the value's purpose as
 * encryption context; every grant names the purposes it allows). Symmetric,
 * rotated yearly, and retained: losing it would make every stored ciphertext unreadable.
 * Separate from the `StorageKey` that encrypts the table and queues at rest, so that
 * reading an item does not grant reading the field inside it.
 */
export class CipherKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: CipherKeyProps = {}) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Encrypts SSNs and tax ids of the verify service (application-level encryption)',
      enableKeyRotation: true,
      pendingWindow: props.pendingWindow ?? Duration.days(30),
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
