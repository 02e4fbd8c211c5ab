import type { Duration } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { FunctionBundling } from '#lib/service/index';
import type { DataKeySpec } from '#shared/data-key/index';
import type { FunctionBank } from './bank-secrets';
import type { CipherKey } from './cipher-key';
import type { FunctionIdentityVendor } from './provider-binding';

// What a ServiceFunction (./service-function.ts) is built with: the parts of its row that
// shape the function and its bundle; its grants are bound afterwards by its methods.

/** A data key as a function binds it (`DataKey` is one): its spec, its ciphertext and the key that opens it. */
export interface BoundDataKey {
  readonly spec: DataKeySpec;
  readonly ciphertext: string;
  readonly cipherKey: CipherKey;
}

export interface ServiceFunctionProps {
  /** Absolute path of the handler module; it exports `handler`. */
  readonly entry: string;
  /**
   * Repository root: the bundler's working directory, and what `bundling.files` are
   * relative to.
   */
  readonly projectRoot: string;
  /** How long one invocation may run. */
  readonly timeout: Duration;
  /**
   * Shown in the Lambda console, e.g. the route key or the consumer it serves.
   * @default - no description
   */
  readonly description?: string;
  /**
   * Memory, which also buys CPU: 512 MB keeps cold starts of a ~0.5 MB bundle short.
   * @default 512
   */
  readonly memorySize?: number;
  /**
   * How long the function's log group keeps entries.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * Minimum level the handler logs (`LOG_LEVEL`).
   * @default 'info'
   */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Bundling needs beyond the house defaults: data files copied beside the bundle.
   * @default - the bundle only
   */
  readonly bundling?: FunctionBundling;
  /**
   * The data keys the function's row holds (the digest key, the field key; see
   * `bindDataKey`). Given at construction because they also shape the bundle: only a bundle
   * holding a key carries the KMS client that decrypts it.
   * @default - no data key
   */
  readonly dataKeys?: readonly BoundDataKey[];
  /**
   * The bank, for a function whose row calls it (`bank`): `BANK_PROVIDER`, and on real
   * rails the provider's settings and read access to the secrets its row reads (see
   * `bindBank`). Given at construction because it also shapes the bundle: only a function
   * that calls the bank on rails carries the rails (`BANK_RAILS_IN_BUNDLE`).
   * @default - no bank: neither the variables nor any Secrets Manager permission
   */
  readonly bank?: FunctionBank;
  /**
   * The identity vendor, for a function whose row calls it (`identityVendor`): as `bank`,
   * its settings and secret with a real vendor, whose adapter only then is bundled
   * (`IDENTITY_VENDOR_IN_BUNDLE`).
   * @default - no identity vendor: no variable, no Secrets Manager permission
   */
  readonly identityVendor?: FunctionIdentityVendor;
  /**
   * Constants defined in the bundle beside the data keys' (esbuild `define`), each derived
   * from the function's row, so that code behind a false one is left out of the bundle.
   * @default - none
   */
  readonly bundleConstants?: Readonly<Record<string, boolean>>;
}
