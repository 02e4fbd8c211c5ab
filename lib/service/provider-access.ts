import type { BankSecretName } from '#shared/bank/rails-secrets';
import type { IdentityVendorSecretName } from '#shared/identity-vendor/vendors';

// What a row asks of the service's third parties, the bank and the identity vendor: which
// of their secrets its function reads (lib/constructs/provider-secrets.ts grants each).

/**
 * What a function's own code asks of the bank (functions/shared/bank/): `BANK_PROVIDER`
 * and, on real rails, the provider's settings and the secrets it reads, no other's.
 */
export interface BankAccess {
  /**
   * The secrets its code reads on rails: `apiKey` for any call to the provider (every row
   * that calls the bank), `webhookSecret` to check a notice's signature (the notice route
   * only). Each one's ARN, `secretsmanager:GetSecretValue` on it, and a place among the
   * roles its resource policy lets read it (lib/constructs/bank-secrets.ts).
   */
  readonly secrets: readonly BankSecretName[];
}

/**
 * What a function's own code asks of the identity vendor (functions/shared/identity-vendor/):
 * `IDENTITY_VENDOR` and, with a real vendor, its settings and its secret.
 */
export interface IdentityVendorAccess {
  /**
   * The secrets its code reads with a real vendor: `apiSecret` for any call to it (Plaid's
   * webhook keys are read with it too). Its ARN, `secretsmanager:GetSecretValue` on it, and
   * a place among the roles its resource policy lets read it.
   */
  readonly secrets: readonly IdentityVendorSecretName[];
}
