import type { Role } from 'aws-cdk-lib/aws-iam';
import type { IdentityVendorSettings } from '#lib/context/identity-vendor';
import type { IdentityVendorAccess } from '#lib/service/index';
import { BANK_SECRET_ARN_ENV } from '#shared/bank/rails-secrets';
import { ENV } from '#shared/config';
import {
  IDENTITY_VENDOR_SECRET_ARN_ENV,
  type IdentityVendorSecretName,
  PLAID_ENV,
} from '#shared/identity-vendor/vendors';
import type { FunctionBank } from './bank-secrets';
import type { ProviderSecrets } from './provider-secrets';

// How a function is bound to the service's third parties (ServiceFunction's `bank` and
// `identityVendor`): the variables its code reads and the secrets its row names, each
// granted to its own role alone.

/** What a function binds its environment and grants to. */
interface Bindable {
  readonly role: Role;
  readonly node: { readonly path: string };
  addEnvironment(name: string, value: string): unknown;
}

/** What a function that calls the identity vendor is bound to: the stack's settings, and its secret with a real vendor. */
export interface IdentityVendorBinding {
  readonly settings: IdentityVendorSettings;
  /** Present exactly when the settings name a real vendor. */
  readonly secrets?: ProviderSecrets<IdentityVendorSecretName>;
}

/** One function's identity vendor: the stack's, and what its row reads of it (`identityVendor` in lib/service/). */
export interface FunctionIdentityVendor {
  readonly binding: IdentityVendorBinding;
  readonly access: IdentityVendorAccess;
}

/**
 * The bank the function calls: `BANK_PROVIDER`; on real rails also the provider's
 * settings (`INCREASE_ACCOUNT_ID`, `INCREASE_ENVIRONMENT`), and of its two secrets exactly
 * those its row reads (`access.secrets`): each one's ARN (`BANK_API_KEY_SECRET_ARN`,
 * `BANK_WEBHOOK_SECRET_ARN`) and `secretsmanager:GetSecretValue` on it, for the own role,
 * read once per warm container.
 */
export function bindBank(fn: Bindable, { binding: { settings, secrets }, access }: FunctionBank): void {
  fn.addEnvironment(ENV.bankProvider, settings.provider);
  if (settings.provider === 'sandbox') return;
  if (!secrets) throw new Error(`${fn.node.path}: the ${settings.provider} bank needs its secrets`);
  fn.addEnvironment(ENV.increaseAccountId, settings.increase.accountId);
  fn.addEnvironment(ENV.increaseEnvironment, settings.increase.environment);
  fn.addEnvironment(ENV.bankStatementName, settings.increase.statementName);
  for (const name of access.secrets) fn.addEnvironment(BANK_SECRET_ARN_ENV[name], secrets.secret(name).secretArn);
  secrets.grantRead(access.secrets, fn.role);
}

/**
 * The identity vendor the function calls, with a real vendor only: `IDENTITY_VENDOR`, its settings
 * (`PLAID_CLIENT_ID`, `PLAID_TEMPLATE_ID`, `PLAID_ENVIRONMENT`) and the ARN of each secret
 * its row reads (`IDENTITY_VENDOR_SECRET_ARN`) with `secretsmanager:GetSecretValue` on it.
 */
export function bindIdentityVendor(fn: Bindable, { binding: { settings, secrets }, access }: FunctionIdentityVendor) {
  // The sandbox vendor is what an unset IDENTITY_VENDOR opens: the default synth stays as it was.
  if (settings.vendor === 'sandbox') return;
  fn.addEnvironment(ENV.identityVendor, settings.vendor);
  if (!secrets) throw new Error(`${fn.node.path}: the ${settings.vendor} identity vendor needs its secret`);
  fn.addEnvironment(PLAID_ENV.clientId, settings.plaid.clientId);
  fn.addEnvironment(PLAID_ENV.templateId, settings.plaid.templateId);
  fn.addEnvironment(PLAID_ENV.environment, settings.plaid.environment);
  for (const name of access.secrets) {
    fn.addEnvironment(IDENTITY_VENDOR_SECRET_ARN_ENV[name], secrets.secret(name).secretArn);
  }
  secrets.grantRead(access.secrets, fn.role);
}
