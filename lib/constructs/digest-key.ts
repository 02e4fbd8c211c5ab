import { join } from 'node:path';
import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DIGEST_KEY_CONTEXT } from '#shared/digest/digest-key';
import { type CipherKey, purposeCondition } from './cipher-key';
import { ServiceFunction } from './service-function';

/** CloudFormation type of the digest key's resource. */
export const DIGEST_KEY_RESOURCE_TYPE = 'Custom::DigestKey';

/** The generator function's description (the Lambda console; tests find it by it). */
export const DIGEST_KEY_GENERATOR_DESCRIPTION =
  'Generates the digest key once, at the first deploy (Custom::DigestKey)';

export interface DigestKeyProps {
  /** The key the digest key is generated under and decrypted with. */
  readonly cipherKey: CipherKey;
  /** Repository root: the generator's handler path is relative to it. */
  readonly projectRoot: string;
  /**
   * How long the generator's log group keeps entries.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
}

/**
 * The service's digest key (docs/data-model.md#digests): 32 random bytes that KMS
 * generates once, under the cipher key and the `digest-key` purpose, when the stack is
 * first deployed. Only the ciphertext leaves KMS: it is the custom resource's physical id
 * (`ciphertext`), which a `ServiceFunction` given the key puts in its environment; each
 * such function decrypts it once per warm container.
 *
 * The generator (functions/deploy/generate-digest-key.ts) is the resource's service token
 * and answers CloudFormation itself: not an `AwsCustomResource`, whose handler turns a
 * binary response field into text with a UTF-8 decoder and would corrupt the ciphertext,
 * nor the provider framework, whose extra function may invoke the generator's every
 * version (a wildcard resource). It answers every update and delete with the ciphertext it
 * was created with and never calls KMS again, and the resource is retained: the key must
 * outlive every stack change, or every stored digest would be orphaned (test/infra pins
 * the resource's logical id).
 */
export class DigestKey extends Construct {
  /** Base64 KMS ciphertext of the digest key (a token: the resource's `Ref`). */
  readonly ciphertext: string;
  /** The key it is generated under and decrypted with. */
  readonly cipherKey: CipherKey;
  /** The function that asks KMS for the key, on the first deploy only. */
  readonly generator: ServiceFunction;
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: DigestKeyProps) {
    super(scope, id);
    this.cipherKey = props.cipherKey;
    this.generator = new ServiceFunction(this, 'Generator', {
      entry: join(props.projectRoot, 'functions/deploy/generate-digest-key.ts'),
      projectRoot: props.projectRoot,
      description: DIGEST_KEY_GENERATOR_DESCRIPTION,
      timeout: Duration.seconds(30),
      logRetention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });
    this.generator.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:GenerateDataKeyWithoutPlaintext'],
        resources: [props.cipherKey.key.keyArn],
        conditions: purposeCondition([DIGEST_KEY_CONTEXT.purpose]),
      }),
    );
    this.resource = new CustomResource(this, 'Resource', {
      resourceType: DIGEST_KEY_RESOURCE_TYPE,
      serviceToken: this.generator.functionArn,
      properties: { KeyArn: props.cipherKey.key.keyArn },
      // A generator that never answers fails the deploy in minutes, not CloudFormation's hour.
      serviceTimeout: Duration.minutes(5),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.ciphertext = this.resource.ref;
  }
}
