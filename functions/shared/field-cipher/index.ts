import { port } from '#shared/dependencies';
import { DATA_KEYS, dataKeySource, noDataKey, prepareDataKey } from '../data-key/index';
import { decryptDataKey } from '../data-key/kms-data-key';
import { FieldCipher, type FieldOwner, holdsSealedValue } from './field-cipher';

export type { FieldOwner } from './field-cipher';
export { FieldCipher, SEALED_KEYS, UnsealableFieldError } from './field-cipher';

/**
 * Defined when the CDK bundles a function (`ServiceFunction`): `true` when its row has the
 * field key, `false` otherwise (`DataKeySpec.bundleConstant`). Unbundled (local runtime,
 * tests) it is undefined and the environment alone decides.
 */
declare const FIELD_KEY_IN_BUNDLE: boolean | undefined;

/**
 * The field key: `LOCAL_FIELD_KEY` (base64) in local mode; in AWS its KMS ciphertext in
 * `FIELD_KEY_CIPHERTEXT`, decrypted once per container.
 */
export const fieldCipher = /* @__PURE__ */ port('fieldCipher', () =>
  // Inline, so that esbuild drops the key's class and the KMS client where the constant is false.
  typeof FIELD_KEY_IN_BUNDLE === 'undefined' || FIELD_KEY_IN_BUNDLE
    ? new FieldCipher(dataKeySource(DATA_KEYS['field-key'], decryptDataKey))
    : noDataKey(DATA_KEYS['field-key']),
);

/** Loads the field key before an invocation's work when the function has one (see `prepareDataKey`). */
export const prepareFieldKey = (): Promise<void> => prepareDataKey(DATA_KEYS['field-key'], fieldCipher);

/**
 * A stored document with its account numbers sealed (`FieldCipher.sealWithin`): the one way
 * the repositories seal. The key is asked for only when the document holds such a value,
 * so a function that never stores one needs no field key.
 */
export const sealFields = <T>(value: T, owner: FieldOwner, root: string): T =>
  holdsSealedValue(value) ? fieldCipher().sealWithin(value, owner, root) : value;

/** A stored document with its account numbers opened (`FieldCipher.openWithin`). */
export const openFields = <T>(value: T, owner: FieldOwner, root: string): T =>
  holdsSealedValue(value) ? fieldCipher().openWithin(value, owner, root) : value;

declare module '#shared/dependencies' {
  interface Dependencies {
    fieldCipher: FieldCipher;
  }
}
