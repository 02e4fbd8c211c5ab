import { AsyncLocalStorage } from 'node:async_hooks';

// Every environment variable a function reads, read in one place. A value is read on
// first use and a missing one throws at once, so a misconfigured function fails on its
// first request with a clear message instead of half-working.

export const ENV = {
  /** Name of the single DynamoDB table. */
  tableName: 'TABLE_NAME',
  /** ARN of the KMS key that encrypts SSNs and tax ids (AWS mode). */
  cipherKeyArn: 'CIPHER_KEY_ARN',
  /** Base64 256-bit key that encrypts SSNs and tax ids (local mode only). */
  localCipherKey: 'LOCAL_CIPHER_KEY',
  /**
   * Base64 KMS ciphertext of the digest key (AWS mode), decrypted once per container under
   * the cipher key (`CIPHER_KEY_ARN`); set only on functions whose row needs digests.
   */
  digestKeyCiphertext: 'DIGEST_KEY_CIPHERTEXT',
  /** Base64 256-bit digest key (local mode only): the HMAC key of every digest of a secret or of PII. */
  localDigestKey: 'LOCAL_DIGEST_KEY',
  /**
   * Base64 KMS ciphertext of the field key (AWS mode), decrypted once per container under
   * the cipher key (`CIPHER_KEY_ARN`); set only on functions whose row seals or opens fields.
   */
  fieldKeyCiphertext: 'FIELD_KEY_CIPHERTEXT',
  /** Base64 256-bit field key (local mode only): the AES-256-GCM key that seals account numbers in stored items. */
  localFieldKey: 'LOCAL_FIELD_KEY',
  /** Sender address of account-holder emails (an SES identity); emails are skipped without it. */
  emailSender: 'EMAIL_SENDER',
  /** `debug` | `info` | `warn` | `error` (either case); default `info`. */
  logLevel: 'LOG_LEVEL',
  /** The `service` on every log line and the metrics' one dimension; default `verify-service`. */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /** CloudWatch namespace of the service's metrics; default `VerifyService`. */
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
  /** `true` silences the metrics, `false` writes them outside Lambda too; unset: written in Lambda only. */
  metricsDisabled: 'POWERTOOLS_METRICS_DISABLED',
  /** Set by Lambda itself: metrics are written only where it is set (unless `POWERTOOLS_METRICS_DISABLED` says otherwise). */
  lambdaFunctionName: 'AWS_LAMBDA_FUNCTION_NAME',
  /** Requests per second a tenant may make without a setting of its own (default 50). */
  tenantRatePerSecond: 'TENANT_RATE_PER_SECOND',
  /** Requests a tenant may make at once without a setting of its own (default 100). */
  tenantBurst: 'TENANT_BURST',
  /** KYC mode of tenants without a setting of their own: `service` (default) or `byo`. */
  defaultKycMode: 'DEFAULT_KYC_MODE',
  /** Seconds before a rejected person's automatic identification retry: 0–900 (an SQS message delay), default 900. */
  identificationRetryDelay: 'IDENTIFICATION_RETRY_DELAY_SECONDS',
  /**
   * Tenants whose list partitions are write-sharded, as JSON `{"<tenant>": <shards 1–32>}`;
   * tenants not named have 1 (docs/data-model.md#write-sharding).
   */
  tenantListShards: 'TENANT_LIST_SHARDS',
  /** `true` in the local runtime only: webhook URLs may be `http://` on a loopback address. */
  allowLoopbackWebhooks: 'ALLOW_LOOPBACK_WEBHOOKS',
  /**
   * `true` in the local runtime only: a client id without an alias record is its own
   * tenant. Unset (every deployed function), such a client is refused with 403 `unknown_client`.
   */
  tenantsFromClientIds: 'TENANTS_FROM_CLIENT_IDS',
  /**
   * What the issuer puts before every scope (Cognito: `verify-service/`), as API Gateway's
   * routes require them; unset: bare scope names (the local issuer's). Handlers that read
   * the token's scopes (the event log) strip exactly this.
   */
  scopePrefix: 'JWT_SCOPE_PREFIX',
  /** The score (50–100) at or above which a person matches a listing (docs/api.md#screening); default 85. */
  screeningThreshold: 'SCREENING_THRESHOLD',
  /**
   * Base URL of OFAC's list files the daily refresh downloads (`sdn.csv`, … under it;
   * docs/deploy.md#context-keys): HTTPS, or HTTP to a loopback address (tests).
   */
  screeningListsUrl: 'SCREENING_LISTS_URL',
  /** A folder of list files the refresh reads instead of downloading (the local runtime sets it). */
  screeningListsDir: 'SCREENING_LISTS_DIR',
  /** The most of a source's listed persons one refresh may take off, in percent (above 0, at most 100); default 5. */
  screeningListsMaxDropPercent: 'SCREENING_LISTS_MAX_DROP_PERCENT',
  /**
   * The bank the functions that call one use (functions/shared/bank/providers.ts):
   * `sandbox` (default) or a provider on real rails (`increase`). Set by the stack on the
   * rows with `bank` only (docs/deploy.md#real-rails-increase).
   */
  bankProvider: 'BANK_PROVIDER',
  /** ARN of the Secrets Manager secret holding the provider's API key (AWS mode, rails only). */
  bankApiKeySecretArn: 'BANK_API_KEY_SECRET_ARN',
  /**
   * ARN of the Secrets Manager secret holding the provider's webhook signing secret (AWS
   * mode, rails only): set only where the row reads notices (`bank.secrets`, the notice route).
   */
  bankWebhookSecretArn: 'BANK_WEBHOOK_SECRET_ARN',
  /** The Increase account entries are sent from (`account_…`): not secret. */
  increaseAccountId: 'INCREASE_ACCOUNT_ID',
  /** Increase's environment: `sandbox` (default, no money moves) or `production`. */
  increaseEnvironment: 'INCREASE_ENVIRONMENT',
  /**
   * The name a holder sees beside the statement code on real rails (at most 11 printable
   * ASCII characters; docs/api.md#what-a-holder-sees), when the account has no `sender_name`.
   */
  bankStatementName: 'BANK_STATEMENT_NAME',
  /** Increase's API key, local mode only (a deployed function reads it from Secrets Manager). */
  increaseApiKey: 'INCREASE_API_KEY',
  /** Increase's webhook secret, local mode only (a deployed function reads it from Secrets Manager). */
  increaseWebhookSecret: 'INCREASE_WEBHOOK_SECRET',
  /** Another base URL for Increase's API (local mode and tests: a fake of it on loopback). */
  increaseBaseUrl: 'INCREASE_BASE_URL',
  /** The identity vendor (`sandbox` default, `plaid`), its API secret's ARN (AWS): its settings in identity-vendor/vendors.ts. */
  identityVendor: 'IDENTITY_VENDOR',
  identityVendorSecretArn: 'IDENTITY_VENDOR_SECRET_ARN',
  /**
   * ARN of the function's tenant role (lib/constructs/tenant-role.ts): set on a function that
   * acts for one tenant per request or message, whose calls about a tenant's records then run
   * under that tenant's credentials (functions/shared/db/tenant-access/). Unset: every call
   * runs under the function's own role.
   */
  tenantRoleArn: 'TENANT_ROLE_ARN',
} as const;

export class ConfigError extends Error {}

/**
 * A function's own variables over the process's: Lambda gives each function an environment
 * of its own, while the local runtime runs every function in one process and sets what
 * differs per function (the tenant role's ARN) for each invocation (`withOwnVariables`).
 */
const ownVariables = new AsyncLocalStorage<Readonly<Record<string, string>>>();

/** Runs one invocation with its function's own variables (the local runtime's invoker). */
export const withOwnVariables = <T>(variables: Readonly<Record<string, string>>, invocation: () => T): T =>
  ownVariables.run(variables, invocation);

const readEnv = (name: string): string | undefined => ownVariables.getStore()?.[name] ?? process.env[name];

export function requireEnv(name: string): string {
  const value = readEnv(name);
  if (value === undefined || value === '') {
    throw new ConfigError(`environment variable ${name} is not set`);
  }
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = readEnv(name);
  return value === undefined || value === '' ? undefined : value;
}

export const tableName = (): string => requireEnv(ENV.tableName);

/** Whether a client id without an alias record is its own tenant: the local runtime's convenience, never a deployed stack's. */
export const tenantsFromClientIds = (): boolean => optionalEnv(ENV.tenantsFromClientIds) === 'true';
/** The issuer's scope prefix (`JWT_SCOPE_PREFIX`); empty when tokens carry bare scope names. */
export const scopePrefix = (): string => optionalEnv(ENV.scopePrefix) ?? '';

/** The service's name on log lines and metrics (Powertools' `service`). */
export const serviceName = (): string => optionalEnv(ENV.serviceName) ?? 'verify-service';

/** Seconds before a rejected person's one automatic identification retry (0–900, an SQS delay). */
export function identificationRetryDelaySeconds(): number {
  const value = Number(optionalEnv(ENV.identificationRetryDelay) ?? 900);
  return Number.isInteger(value) && value >= 0 && value <= 900 ? value : 900;
}

/**
 * The screening threshold (`SCREENING_THRESHOLD`); undefined: the matcher's default. A value
 * that is no whole number from 50 to 100 throws: screening on a mistyped threshold would
 * miss or flag every person silently.
 */
export function screeningThreshold(): number | undefined {
  const raw = optionalEnv(ENV.screeningThreshold);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 50 || value > 100) {
    throw new ConfigError(`${ENV.screeningThreshold} must be a whole number from 50 to 100, not "${raw}"`);
  }
  return value;
}

/**
 * Where the refresh reads the lists: the folder `SCREENING_LISTS_DIR` (local) when set, else
 * `SCREENING_LISTS_URL`; undefined when neither is. A URL that is not HTTPS (or HTTP to a
 * loopback address) throws: the lists decide who is sanctioned.
 */
export function screeningListsSource(): { readonly url: string } | { readonly dir: string } | undefined {
  const dir = optionalEnv(ENV.screeningListsDir);
  if (dir) return { dir };
  const raw = optionalEnv(ENV.screeningListsUrl);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  const loopback = url?.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!url || !(url.protocol === 'https:' || loopback)) {
    throw new ConfigError(`${ENV.screeningListsUrl} must be an https:// URL, not "${raw}"`);
  }
  return { url: url.href };
}

/** `SCREENING_LISTS_MAX_DROP_PERCENT`; undefined: the refresh's default. Outside (0, 100] throws. */
export function screeningListsMaxDropPercent(): number | undefined {
  const raw = optionalEnv(ENV.screeningListsMaxDropPercent);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 100) {
    throw new ConfigError(
      `${ENV.screeningListsMaxDropPercent} must be a percentage above 0, at most 100, not "${raw}"`,
    );
  }
  return value;
}

let parsedShards: { raw: string | undefined; value: Readonly<Record<string, number>> } | undefined;

/**
 * Each sharded tenant's list shard count (`TENANT_LIST_SHARDS`), parsed once per value. A
 * malformed value throws: reading a list with fewer shards than were written would hide
 * records.
 */
export function tenantListShards(): Readonly<Record<string, number>> {
  const raw = optionalEnv(ENV.tenantListShards);
  if (parsedShards && parsedShards.raw === raw) return parsedShards.value;
  const value = raw === undefined ? {} : parseShardCounts(raw);
  parsedShards = { raw, value };
  return value;
}

function parseShardCounts(raw: string): Record<string, number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every((n) => Number.isInteger(n) && n >= 1 && n <= 32);
  if (!valid) {
    throw new ConfigError(
      `environment variable ${ENV.tenantListShards} must be a JSON object of tenant → shard count (1–32)`,
    );
  }
  return parsed as Record<string, number>;
}
