import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface StorageKeyProps {
  /**
   * How long a scheduled deletion waits. The key guards the whole table (and its stream,
   * indexes and backups), so a deletion must be reversible for as long as KMS allows.
   * @default Duration.days(30)
   */
  readonly pendingWindow?: Duration;
}

/**
 * Why a principal uses the storage key, each with exactly the KMS actions AWS documents
 * for it (DynamoDB and SQS call KMS with the caller's permissions):
 * - `table`: reading or writing the table. DynamoDB decrypts the table key with the
 *   caller's `kms:Decrypt` (cached for 5 minutes per connection); the table key itself was
 *   generated when the table was created, under DynamoDB's own grant, so no caller needs
 *   `kms:GenerateDataKey` or `kms:Encrypt`.
 * - `stream`: reading the table stream (the stream router's event source mapping, with its
 *   role): `kms:Decrypt`. Not limited to a calling service: AWS documents no
 *   `kms:ViaService` value for DynamoDB Streams, and a wrong one would stop the pipeline.
 * - `queue-send`: sending to an encrypted queue: `kms:GenerateDataKey` for a new data
 *   key once its reuse period ends, and `kms:Decrypt` to verify it.
 * - `queue-receive`: receiving from an encrypted queue: `kms:Decrypt`.
 */
export type StorageKeyUse = 'table' | 'stream' | 'queue-send' | 'queue-receive';

/**
 * The customer-managed KMS key that encrypts the service's stored data at rest: the
 * DynamoDB table (items, indexes, stream, backups) and every queue whose messages carry
 * personal data or point at it (the work queues, their dead-letter queues and the stream
 * router's on-failure store). Separate from the `CipherKey`, which encrypts single fields
 * (SSNs, tax ids, webhook secrets) inside the application: a role that may read a table
 * item through DynamoDB cannot thereby decrypt the SSN inside it.
 *
 * Symmetric, rotated yearly, retained (the table cannot be read without it). Its key
 * policy is the default one, which delegates to IAM in this account and names no other
 * principal: who may use the key is exactly the roles given a `statement(use)` (asserted
 * in test/infra). Each statement names only the actions of its use, on this key only, and
 * (table and queues) only when DynamoDB or SQS makes the call on the role's behalf.
 */
export class StorageKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: StorageKeyProps = {}) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: `Encrypts the table and the queues of ${Stack.of(this).stackName} at rest`,
      enableKeyRotation: true,
      pendingWindow: props.pendingWindow ?? Duration.days(30),
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** The one policy statement a role needs to use the key for `use`; see `StorageKeyUse`. */
  statement(use: StorageKeyUse): PolicyStatement {
    const { actions, via } = USES[use];
    return new PolicyStatement({
      actions: [...actions],
      resources: [this.key.keyArn],
      ...(via && { conditions: { StringEquals: { 'kms:ViaService': this.viaService(via) } } }),
    });
  }

  /** The `kms:ViaService` value of a service's calls in this stack's region. */
  private viaService(service: string): string {
    const stack = Stack.of(this);
    return `${service}.${stack.region}.${stack.urlSuffix}`;
  }
}

const USES: Readonly<Record<StorageKeyUse, { actions: readonly string[]; via?: string }>> = {
  table: { actions: ['kms:Decrypt'], via: 'dynamodb' },
  stream: { actions: ['kms:Decrypt'] },
  'queue-send': { actions: ['kms:Decrypt', 'kms:GenerateDataKey'], via: 'sqs' },
  'queue-receive': { actions: ['kms:Decrypt'], via: 'sqs' },
};
