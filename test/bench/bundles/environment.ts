import { join } from 'node:path';
import { SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';
import { LOCAL_AWS_ENV, LOCAL_REGION } from '#lib/local/aws-account';
import { REPO_ROOT } from '#lib/repo-root';
import { ENV } from '#shared/config';
import { QUEUES, type QueueId } from '#shared/queue/message-queue';
import type { QueueRecorder } from './queue-recorder';
import type { SynthesizedFunction } from './synth';

/** Where the bench's stand-ins for AWS are. */
export interface LocalAws {
  readonly tableName: string;
  readonly dynamoEndpoint: string;
  readonly queues: QueueRecorder;
  /** Base64, 32 bytes: the local cipher's key in place of KMS. */
  readonly cipherKey: string;
  /** Base64, 32 bytes: the digest key in place of its KMS ciphertext. */
  readonly digestKey: string;
  /** Base64, 32 bytes: the field key in place of its KMS ciphertext. */
  readonly fieldKey: string;
  /** Where the function "runs" (LAMBDA_TASK_ROOT, HOME). */
  readonly home: string;
  /** The STS stand-in the functions assume their tenant roles from (lib/local/iam/). */
  readonly stsEndpoint: string;
  /** A function's tenant role among the stand-in's, by its name (its row's id). */
  tenantRoleArn(fnName: string): string | undefined;
  /**
   * V8's young generation, in place of the one Lambda's flags give (`--semi-space=N` of the
   * bundles part): an experiment on what peak RSS is made of, never a result.
   */
  readonly semiSpaceMb?: number;
}

/** Far above 1,000 requests in a few seconds: the bench measures the handlers, not the tenant's token bucket. */
const UNLIMITED = '1000000';

/**
 * A function's environment as Lambda gives it: the template's variables, each reference
 * to another resource (table, queue, key) resolved to the bench's local stand-in, plus
 * what the Lambda runtime itself sets. Nothing is inherited from the bench's own process,
 * so a real AWS profile or region in the shell cannot leak in, and no call leaves the
 * machine: DynamoDB, SQS and STS go to their local endpoints (DynamoDB through the IAM
 * proxy that holds tenant sessions to their roles, lib/local/iam/), KMS is replaced by the local
 * cipher (LOCAL_CIPHER_KEY wins over CIPHER_KEY_ARN) and the data keys by local ones
 * (LOCAL_DIGEST_KEY, LOCAL_FIELD_KEY win over their ciphertexts), emails are off (no EMAIL_SENDER),
 * and the lists' refresh reads the sandbox lists' folder (SCREENING_LISTS_DIR wins over
 * OFAC's SCREENING_LISTS_URL), as `npm start`'s does.
 */
export function lambdaEnvironment(fn: SynthesizedFunction, local: LocalAws): Record<string, string> {
  const queueOf = new Map(Object.entries(QUEUES).map(([id, queue]) => [queue.envVar as string, id as QueueId]));
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    if (typeof value === 'string') resolved[name] = value;
    else if (name === ENV.tableName) resolved[name] = local.tableName;
    else if (name === ENV.cipherKeyArn) resolved[name] = `arn:aws:kms:${LOCAL_REGION}:123456789012:key/bench`;
    else if (name === ENV.digestKeyCiphertext || name === ENV.fieldKeyCiphertext)
      resolved[name] = Buffer.from('bench').toString('base64');
    else if (queueOf.has(name)) resolved[name] = local.queues.urlOf(queueOf.get(name) as QueueId);
    else if (name === ENV.tenantRoleArn && local.tenantRoleArn(fn.name) !== undefined)
      resolved[name] = local.tenantRoleArn(fn.name) as string;
    else throw new Error(`${fn.name}: the bench cannot resolve ${name} = ${JSON.stringify(value)} to a local value`);
  }
  return {
    // Set by the Lambda runtime.
    ...LOCAL_AWS_ENV,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    AWS_SESSION_TOKEN: 'bench',
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    LAMBDA_TASK_ROOT: fn.dir,
    _HANDLER: 'index.handler',
    TZ: ':UTC',
    LANG: 'en_US.UTF-8',
    HOME: local.home,
    // The template's own.
    ...resolved,
    // The local stand-ins, as lib/local/handler-environment.ts sets them for `npm start`.
    AWS_ENDPOINT_URL_DYNAMODB: local.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: local.queues.endpoint,
    // The tenant roles' sessions, from the stand-in; their calls go through its IAM proxy (dynamoEndpoint).
    AWS_ENDPOINT_URL_STS: local.stsEndpoint,
    [ENV.localCipherKey]: local.cipherKey,
    [ENV.localDigestKey]: local.digestKey,
    [ENV.localFieldKey]: local.fieldKey,
    ...(ENV.screeningListsUrl in resolved && { [ENV.screeningListsDir]: join(REPO_ROOT, SANDBOX_LISTS_DIR) }),
    [ENV.allowLoopbackWebhooks]: 'true',
    [ENV.tenantsFromClientIds]: 'true',
    [ENV.tenantRatePerSecond]: UNLIMITED,
    [ENV.tenantBurst]: UNLIMITED,
  };
}

/**
 * The V8 heap flags the Lambda Node.js runtime starts `node` with (its bootstrap script):
 * a tenth of the function's memory for the young generation, half of that per semi-space,
 * the rest for the old generation. Peak RSS depends on them, since garbage stays resident
 * until the heap reaches its limits, so the bench's processes get the same.
 */
export function lambdaNodeFlags(fn: Pick<SynthesizedFunction, 'memorySize'>, semiSpaceMb?: number): string[] {
  const newSpace = Math.floor(fn.memorySize / 10);
  return [
    '--expose-gc',
    `--max-semi-space-size=${semiSpaceMb ?? Math.floor(newSpace / 2)}`,
    `--max-old-space-size=${fn.memorySize - newSpace}`,
  ];
}
