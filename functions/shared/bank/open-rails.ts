import { ConfigError, ENV, optionalEnv, requireEnv } from '#shared/config';
import type { BankProvider } from './bank-provider';
import {
  INCREASE_ENVIRONMENTS,
  type IncreaseEnvironment,
  type IncreaseRailsSettings,
  RAILS_PROVIDERS,
  type RailsFactories,
  type RailsProviderName,
} from './providers';
import { bankSecrets } from './secrets';

/**
 * Builds the provider's adapter from its secrets (Secrets Manager in AWS, the environment
 * locally) and its settings (the environment): what `DeferredBank` opens on first use.
 */
export async function openRails(
  name: RailsProviderName,
  factories: RailsFactories = RAILS_PROVIDERS,
): Promise<BankProvider> {
  const settings = increaseSettings();
  return factories[name](await bankSecrets(name), settings);
}

function increaseSettings(): IncreaseRailsSettings {
  const environment = optionalEnv(ENV.increaseEnvironment) ?? 'sandbox';
  if (!(INCREASE_ENVIRONMENTS as readonly string[]).includes(environment)) {
    throw new ConfigError(
      `${ENV.increaseEnvironment} must be one of ${INCREASE_ENVIRONMENTS.join(', ')}, not "${environment}"`,
    );
  }
  const baseURL = optionalEnv(ENV.increaseBaseUrl);
  const statementName = optionalEnv(ENV.bankStatementName);
  return {
    accountId: requireEnv(ENV.increaseAccountId),
    environment: environment as IncreaseEnvironment,
    ...(statementName && { statementName }),
    ...(baseURL && { baseURL }),
  };
}
