import { KMSClient } from '@aws-sdk/client-kms';
import { ENV, optionalEnv, requireEnv } from '#shared/config';
import { port } from '#shared/dependencies';
import { DigestKey, type DigestKind } from './digest-key';
import { decryptDigestKey } from './kms-digest-key';

export type { DigestKind } from './digest-key';

/**
 * The digest key: `LOCAL_DIGEST_KEY` (base64) in local mode; in AWS its KMS ciphertext in
 * `DIGEST_KEY_CIPHERTEXT`, decrypted once per container.
 */
export const digestKey = /* @__PURE__ */ port('digestKey', () => {
  const localKey = optionalEnv(ENV.localDigestKey);
  if (localKey) return new DigestKey(Buffer.from(localKey, 'base64'));
  const ciphertext = requireEnv(ENV.digestKeyCiphertext);
  const keyArn = requireEnv(ENV.cipherKeyArn);
  return new DigestKey(() => decryptDigestKey(new KMSClient({}), keyArn, ciphertext));
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
