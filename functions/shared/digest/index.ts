import { KMSClient } from '@aws-sdk/client-kms';
import { ConfigError, ENV, optionalEnv, requireEnv } from '#shared/config';
import { port } from '#shared/dependencies';
import { DigestKey, type DigestKind } from './digest-key';
import { decryptDigestKey } from './kms-digest-key';

export type { DigestKind } from './digest-key';

/**
 * Defined when the CDK bundles a function (`ServiceFunction`): `true` when its row has the
 * digest key, `false` otherwise. Every entry point reaches the KMS branch below (through
 * `prepareDigestKey` and `digest`), so only this bundle-time constant keeps the KMS client
 * out of the bundles of functions that never load the key. Unbundled (local runtime,
 * tests) it is undefined and the environment alone decides.
 */
declare const DIGEST_KEY_IN_BUNDLE: boolean | undefined;

/**
 * The digest key: `LOCAL_DIGEST_KEY` (base64) in local mode; in AWS its KMS ciphertext in
 * `DIGEST_KEY_CIPHERTEXT`, decrypted once per container.
 */
export const digestKey = /* @__PURE__ */ port('digestKey', () => {
  const localKey = optionalEnv(ENV.localDigestKey);
  if (localKey) return new DigestKey(Buffer.from(localKey, 'base64'));
  // Written inline: esbuild drops the branch, and the KMS client with it, only when the
  // condition itself folds to false.
  if (typeof DIGEST_KEY_IN_BUNDLE === 'undefined' || DIGEST_KEY_IN_BUNDLE) {
    const ciphertext = requireEnv(ENV.digestKeyCiphertext);
    const keyArn = requireEnv(ENV.cipherKeyArn);
    return new DigestKey(() => decryptDigestKey(new KMSClient({}), keyArn, ciphertext));
  }
  throw new ConfigError('this function has no digest key: its row in lib/service/ does not need one');
});

/**
 * Loads the digest key before an invocation's work when the function has one (its
 * ciphertext in the environment; the function's row says so), so that `digest` and the
 * key builders that call it can stay synchronous. A function without a digest key does
 * nothing here.
 */
export async function prepareDigestKey(): Promise<void> {
  if (optionalEnv(ENV.digestKeyCiphertext) !== undefined) await digestKey().ready();
}

/**
 * The keyed digest of a secret or of PII (hex, 64 characters): the one way the service
 * digests such values. `createHash` is for content that is no secret (event ids).
 */
export const digest = (kind: DigestKind, value: string): string => digestKey().digest(kind, value);

/** `digest` of one kind, for code that takes a digest function (the domain's statement-code rules). */
export const digestOf =
  (kind: DigestKind) =>
  (value: string): string =>
    digest(kind, value);
