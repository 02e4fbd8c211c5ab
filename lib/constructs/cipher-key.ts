import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ENV } from '#shared/config';
import type { CipherAccess } from '../service';

export interface CipherKeyProps {
  /**
   * How long a scheduled deletion waits. The key guards every stored SSN and tax id, so a
   * deletion must be reversible for as long as KMS allows.
   * @default Duration.days(30)
   */
  readonly pendingWindow?: Duration;
}

/**
 * The customer-managed KMS key that encrypts SSNs and tax ids at the application level
 * (`functions/shared/cipher/kms-cipher.ts` calls KMS Encrypt/Decrypt directly, with the
 * record's owner as encryption context). Symmetric, rotated yearly, and retained: losing
 * it would make every stored ciphertext unreadable.
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

/**
 * Gives a function exactly the key operation its route needs and tells it the key ARN.
 * `encrypt` grants only `kms:Encrypt`, not `grantEncrypt()`'s `kms:ReEncrypt*` and
 * `kms:GenerateDataKey*`: the cipher never uses those, and a writer must not be able to
 * re-encrypt or derive data keys. Without an access mode the function gets neither a
 * permission nor the ARN, so it cannot even name the key.
 */
export function bindCipherKey(fn: LambdaFunction, cipherKey: CipherKey, access: CipherAccess | undefined): void {
  if (access === undefined) return;
  if (access === 'encrypt') cipherKey.key.grant(fn, 'kms:Encrypt');
  else cipherKey.key.grantDecrypt(fn);
  fn.addEnvironment(ENV.cipherKeyArn, cipherKey.key.keyArn);
}
