// The identity vendors a stack can use, by name (CDK context `identityVendor`,
// `IDENTITY_VENDOR` at run time): the sandbox vendor, which needs nothing, and Plaid's
// Identity Verification, opened from its secret and settings. Nothing here imports an
// adapter: a function bundled for the sandbox carries none (`IDENTITY_VENDOR_IN_BUNDLE`).

export const IDENTITY_VENDORS = ['sandbox', 'plaid'] as const;
export type IdentityVendorName = (typeof IDENTITY_VENDORS)[number];
/** A real vendor: a secret, signed notices, a webhook route. */
export type RealVendorName = Exclude<IdentityVendorName, 'sandbox'>;

/** Plaid's environments: its sandbox checks Plaid's test identities only (docs/deploy.md#identity-vendor-plaid). */
export const PLAID_ENVIRONMENTS = ['sandbox', 'production'] as const;
export type PlaidEnvironment = (typeof PLAID_ENVIRONMENTS)[number];

/** Plaid's settings beside its secret, by the variable each reaches a function in: none of them secret. */
export const PLAID_ENV = {
  clientId: 'PLAID_CLIENT_ID',
  /** The Identity Verification template whose only step is the KYC check (`idvtmp_…`). */
  templateId: 'PLAID_TEMPLATE_ID',
  environment: 'PLAID_ENVIRONMENT',
  /** Local mode and tests only: Plaid's API secret (a deployed function reads it from Secrets Manager) and a fake's URL. */
  secret: 'PLAID_SECRET',
  baseUrl: 'PLAID_BASE_URL',
} as const;

export interface PlaidSettings {
  readonly clientId: string;
  readonly templateId: string;
  readonly environment: PlaidEnvironment;
  /** Another API base URL: a local fake of Plaid's API (tests, `npm start`); never set by the stack. */
  readonly baseURL?: string;
}

/** A real vendor's secrets, by the name a row gives them (`identityVendor.secrets` in lib/service/). */
export type IdentityVendorSecretName = 'apiSecret';

/** The variable each secret's ARN reaches a function in (set by the stack for the secrets its row reads). */
export const IDENTITY_VENDOR_SECRET_ARN_ENV = {
  apiSecret: 'IDENTITY_VENDOR_SECRET_ARN',
} as const satisfies Record<IdentityVendorSecretName, string>;

/**
 * The constant the CDK defines in every function's bundle (`ServiceFunction`): true only
 * for a function that calls the identity vendor in a stack with a real vendor, the only
 * bundles that then carry its adapter (functions/shared/identity-vendor/index.ts).
 */
export const IDENTITY_VENDOR_BUNDLE_CONSTANT = 'IDENTITY_VENDOR_IN_BUNDLE';
