import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ENV } from '#shared/config';
import { forgetStsClient } from '#shared/db/tenant-access/sts';
import { resetDependencies } from '#shared/dependencies';
import { LOCAL_AWS_ENV } from './aws-account';
import { readOrCreateFile, stateDir } from './state-dir';

/**
 * Sets what a deployed function finds in its environment, pointed at DynamoDB Local. Also
 * for integration tests that call repository code without HTTP in between.
 */
export function configureHandlerEnvironment(settings: {
  dynamoEndpoint: string;
  /**
   * Where the handlers' STS client assumes tenant roles: the local runtime's stand-in
   * (lib/local/iam/sts-stand-in.ts). Unset without one: nothing then sets `TENANT_ROLE_ARN`.
   */
  stsEndpoint?: string;
  tableName: string;
  /** Base64, 32 bytes; default a random one. */
  cipherKey?: string;
  /** Base64, 32 bytes; default a random one. */
  digestKey?: string;
  /** Base64, 32 bytes; default a random one. */
  fieldKey?: string;
}): void {
  Object.assign(process.env, LOCAL_AWS_ENV, {
    AWS_ENDPOINT_URL_DYNAMODB: settings.dynamoEndpoint,
    [ENV.tableName]: settings.tableName,
    [ENV.localCipherKey]: settings.cipherKey ?? newKey(),
    [ENV.localDigestKey]: settings.digestKey ?? newKey(),
    [ENV.localFieldKey]: settings.fieldKey ?? newKey(),
    // Local webhook receivers listen on 127.0.0.1 over plain HTTP; AWS never sets this.
    [ENV.allowLoopbackWebhooks]: 'true',
    // Local tokens name any tenant as their client id (npm run token -- <tenant>); a
    // deployed stack refuses a client id without an alias record instead. AWS never sets this.
    [ENV.tenantsFromClientIds]: 'true',
  });
  if (settings.stsEndpoint) process.env.AWS_ENDPOINT_URL_STS = settings.stsEndpoint;
  else delete process.env.AWS_ENDPOINT_URL_STS;
  // Clients cached by an earlier runtime in this process point at its endpoints and keys.
  resetDependencies();
  forgetStsClient();
}

/**
 * The key that encrypts SSNs and tax ids. Random per in-memory run (the data dies with
 * it); kept beside a persistent database, or its ciphertexts could never be read again.
 */
export const localCipherKey = (dataDir: string | undefined): Promise<string> => localKey(dataDir, 'cipher-key');

/**
 * The key of every digest of a secret or of PII (HMAC). Random per in-memory run; kept
 * beside a persistent database, or no stored digest (an account-number index entry, an
 * idempotency record, a statement code) would ever match again.
 */
export const localDigestKey = (dataDir: string | undefined): Promise<string> => localKey(dataDir, 'digest-key');

/**
 * The key that seals account numbers in stored items. Random per in-memory run; kept beside
 * a persistent database, or no stored account, event or replayable answer would open again.
 */
export const localFieldKey = (dataDir: string | undefined): Promise<string> => localKey(dataDir, 'field-key');

async function localKey(dataDir: string | undefined, file: string): Promise<string> {
  if (!dataDir) return newKey();
  return (await readOrCreateFile(join(stateDir(dataDir), file), async () => newKey())).trim();
}

const newKey = (): string => randomBytes(32).toString('base64');
