import { join } from 'node:path';
import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DATA_KEYS, type DataKeyPurpose, type DataKeySpec } from '#shared/data-key/index';
import { type CipherKey, purposeCondition } from './cipher-key';
import { ServiceFunction } from './service-function';
import type { BoundDataKey } from './service-function-props';

/** A data key's generator's description (the Lambda console; tests find it by it). */
export const dataKeyGeneratorDescription = (purpose: DataKeyPurpose): string =>
  `Generates the ${DATA_KEYS[purpose].name} once, at the first deploy (${DATA_KEYS[purpose].resourceType})`;

export interface DataKeyProps {
  /** Which data key: its purpose names it (`DATA_KEYS`). */
  readonly purpose: DataKeyPurpose;
  /** The key the data key is generated under and decrypted with. */
  readonly cipherKey: CipherKey;
  /** Repository root: the generator's handler path is relative to it. */
  readonly projectRoot: string;
  /**
   * How long the generator's log group keeps entries.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
}

/** The generator's entry point, relative to the repository root. */
export const DATA_KEY_GENERATOR = 'functions/deploy/handlers/generate-data-key.ts';

/**
 * One of the service's data keys (functions/shared/data-key/: the digest key of
 * docs/data-model.md#digests, the field key of docs/data-model.md#field-encryption): 32
 * random bytes that KMS generates once, under the cipher key and the key's purpose, when
 * the stack is first deployed. Only the ciphertext leaves KMS: it is the custom resource's
 * physical id (`ciphertext`), which a `ServiceFunction` given the key puts in its
 * environment; each such function decrypts it once per warm container.
 *
 * Each key has its own generator (functions/deploy/handlers/generate-data-key.ts), allowed to
 * generate only under its own purpose, which it reads from the resource's type. The
 * generator is the resource's service token and answers CloudFormation itself: not an
 * `AwsCustomResource`, whose handler turns a binary response field into text with a UTF-8
 * decoder and would corrupt the ciphertext, nor the provider framework, whose extra
 * function may invoke the generator's every version (a wildcard resource). It answers every
 * update and delete with the ciphertext it was created with and never calls KMS again, and
 * the resource is retained: the key must outlive every stack change, or every stored
 * digest or sealed field would be orphaned (test/infra pins the resources' logical ids).
 */
export class DataKey extends Construct implements BoundDataKey {
  readonly spec: DataKeySpec;
  /** Base64 KMS ciphertext of the key (a token: the resource's `Ref`). */
  readonly ciphertext: string;
  /** The key it is generated under and decrypted with. */
  readonly cipherKey: CipherKey;
  /** The function that asks KMS for the key, on the first deploy only. */
  readonly generator: ServiceFunction;
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: DataKeyProps) {
    super(scope, id);
    this.spec = DATA_KEYS[props.purpose];
    this.cipherKey = props.cipherKey;
    this.generator = new ServiceFunction(this, 'Generator', {
      entry: join(props.projectRoot, DATA_KEY_GENERATOR),
      projectRoot: props.projectRoot,
      description: dataKeyGeneratorDescription(props.purpose),
      timeout: Duration.seconds(30),
      logRetention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });
    this.generator.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:GenerateDataKeyWithoutPlaintext'],
        resources: [props.cipherKey.key.keyArn],
        conditions: purposeCondition([props.purpose]),
      }),
    );
    this.resource = new CustomResource(this, 'Resource', {
      resourceType: this.spec.resourceType,
      serviceToken: this.generator.functionArn,
      properties: { KeyArn: props.cipherKey.key.keyArn },
      // A generator that never answers fails the deploy in minutes, not CloudFormation's hour.
      serviceTimeout: Duration.minutes(5),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.ciphertext = this.resource.ref;
  }
}
