import { ConfigError, ENV, optionalEnv, requireEnv } from '#shared/config';
import { hidden, secretValue } from '#shared/provider-secrets';
import type { IdentityVendor } from './identity-vendor';
import { PLAID_ENV, PLAID_ENVIRONMENTS, type PlaidEnvironment, type RealVendorName } from './vendors';

// Opens a real vendor's adapter from its secret (Secrets Manager in AWS, the environment
// locally) and its settings (the environment): what the port opens on first use. The
// secret is read once per container; it is never logged (the object serialises without it,
// and the logger redacts `*secret*` keys besides).

let cached: Promise<{ secret: string }> | undefined;

export async function openVendor(_name: RealVendorName): Promise<IdentityVendor> {
  const { secret } = await vendorSecret();
  const environment = optionalEnv(PLAID_ENV.environment) ?? 'sandbox';
  if (!(PLAID_ENVIRONMENTS as readonly string[]).includes(environment)) {
    throw new ConfigError(
      `${PLAID_ENV.environment} must be one of ${PLAID_ENVIRONMENTS.join(', ')}, not "${environment}"`,
    );
  }
  const baseURL = optionalEnv(PLAID_ENV.baseUrl);
  const { PlaidIdentityVendor } = await import('./plaid/plaid-vendor');
  return new PlaidIdentityVendor({
    clientId: requireEnv(PLAID_ENV.clientId),
    secret,
    templateId: requireEnv(PLAID_ENV.templateId),
    environment: environment as PlaidEnvironment,
    ...(baseURL && { baseURL }),
  });
}

/** Forget what was read (tests that change the environment). */
export function resetVendorSecret(): void {
  cached = undefined;
}

function vendorSecret(): Promise<{ secret: string }> {
  cached ??= readSecret().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function readSecret(): Promise<{ secret: string }> {
  const arn = optionalEnv(ENV.identityVendorSecretArn);
  if (arn) return hidden({ secret: await secretValue(arn, 'docs/deploy.md#identity-vendor-plaid') });
  const local = optionalEnv(PLAID_ENV.secret);
  if (!local) {
    throw new ConfigError(
      `IDENTITY_VENDOR is plaid: set ${PLAID_ENV.secret} (locally), or ${ENV.identityVendorSecretArn} (the stack sets it)`,
    );
  }
  return hidden({ secret: local });
}
