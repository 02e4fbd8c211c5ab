import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Cipher } from './cipher/cipher';
import { KmsCipher } from './cipher/kms-cipher';
import { LocalCipher } from './cipher/local-cipher';
import { ENV, optionalEnv, requireEnv } from './config';

/**
 * The one place handlers get their AWS clients and ports from. Which implementation is
 * used follows from configuration alone (e.g. `AWS_ENDPOINT_URL_DYNAMODB` points the
 * SDK at DynamoDB Local), so handlers never know which mode they run in. Tests and the
 * local runtime may replace any dependency with `setDependencies`.
 */
export interface Dependencies {
  documentClient: DynamoDBDocumentClient;
  cipher: Cipher;
  now: () => Date;
}

const overrides: Partial<Dependencies> = {};
const cache: Partial<Dependencies> = {};

const factories: { [K in keyof Dependencies]: () => Dependencies[K] } = {
  documentClient: () =>
    DynamoDBDocumentClient.from(new DynamoDBClient({}), {
      marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
    }),
  cipher: () => {
    const localKey = optionalEnv(ENV.localCipherKey);
    if (localKey) return new LocalCipher(localKey);
    return new KmsCipher(new KMSClient({}), requireEnv(ENV.cipherKeyArn));
  },
  now: () => () => new Date(),
};

export function dependency<K extends keyof Dependencies>(name: K): Dependencies[K] {
  const override = overrides[name];
  if (override) return override as Dependencies[K];
  cache[name] ??= factories[name]();
  return cache[name] as Dependencies[K];
}

/** Replace dependencies (tests, local runtime). Pass `undefined` to restore the default. */
export function setDependencies(values: Partial<Dependencies>): void {
  for (const [key, value] of Object.entries(values) as [keyof Dependencies, never][]) {
    if (value === undefined) delete overrides[key];
    else overrides[key] = value;
  }
}

/** Forget cached clients (tests that change the environment between cases). */
export function resetDependencies(): void {
  for (const key of Object.keys(overrides) as (keyof Dependencies)[]) delete overrides[key];
  for (const key of Object.keys(cache) as (keyof Dependencies)[]) delete cache[key];
}
