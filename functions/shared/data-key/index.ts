import { ConfigError, optionalEnv } from '#shared/config';
import type { DataKey, DataKeySource, DataKeySpec } from './data-key';

export type { DataKeyPurpose, DataKeySpec } from './data-key';
export { DATA_KEY_BYTES, DATA_KEYS, DataKey } from './data-key';

/**
 * Where a data key comes from in this function: its bytes in `spec.localEnv` (local mode),
 * else `fromKms` (AWS: its ciphertext decrypted once). Each key's port makes its key only
 * under its bundle-time constant (see `DataKeySpec.bundleConstant`), written inline at the
 * call: esbuild drops the key's class and the KMS client only when that condition itself
 * folds to false, and a function whose row does not hold the key then fails (`noDataKey`),
 * clearly, rather than asking KMS for a key it has no grant for.
 */
export function dataKeySource(
  spec: DataKeySpec,
  fromKms: ((spec: DataKeySpec) => Promise<Buffer>) | undefined,
): DataKeySource {
  const local = optionalEnv(spec.localEnv);
  if (local) return Buffer.from(local, 'base64');
  if (fromKms) return () => fromKms(spec);
  return noDataKey(spec);
}

/** A key's use in a function whose row does not hold it. */
export function noDataKey(spec: DataKeySpec): never {
  throw new ConfigError(`this function has no ${spec.name}: its row in lib/service/ does not need one`);
}

/**
 * Loads a data key before an invocation's work when the function holds it (its ciphertext
 * in the environment; the function's row says so), so that its uses can stay synchronous.
 * A function without the key does nothing here.
 */
export async function prepareDataKey(spec: DataKeySpec, key: () => DataKey): Promise<void> {
  if (optionalEnv(spec.ciphertextEnv) !== undefined) await key().ready();
}
