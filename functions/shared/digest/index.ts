import { port } from '#shared/dependencies';
import { DATA_KEYS, dataKeySource, noDataKey, prepareDataKey } from '../data-key/index';
import { decryptDataKey } from '../data-key/kms-data-key';
import { DigestKey, type DigestKind } from './digest-key';

export type { DigestKind } from './digest-key';

/**
 * Defined when the CDK bundles a function (`ServiceFunction`): `true` when its row has the
 * digest key, `false` otherwise (`DataKeySpec.bundleConstant`). Unbundled (local runtime,
 * tests) it is undefined and the environment alone decides.
 */
declare const DIGEST_KEY_IN_BUNDLE: boolean | undefined;

/**
 * The digest key: `LOCAL_DIGEST_KEY` (base64) in local mode; in AWS its KMS ciphertext in
 * `DIGEST_KEY_CIPHERTEXT`, decrypted once per container.
 */
export const digestKey = /* @__PURE__ */ port('digestKey', () =>
  // Inline, so that esbuild drops the key's class and the KMS client where the constant is false.
  typeof DIGEST_KEY_IN_BUNDLE === 'undefined' || DIGEST_KEY_IN_BUNDLE
    ? new DigestKey(dataKeySource(DATA_KEYS['digest-key'], decryptDataKey))
    : noDataKey(DATA_KEYS['digest-key']),
);

/** Loads the digest key before an invocation's work when the function has one (see `prepareDataKey`). */
export const prepareDigestKey = (): Promise<void> => prepareDataKey(DATA_KEYS['digest-key'], digestKey);

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

declare module '#shared/dependencies' {
  interface Dependencies {
    digestKey: DigestKey;
  }
}
