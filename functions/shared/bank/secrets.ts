import { ConfigError, ENV, optionalEnv } from '#shared/config';
import { hidden, secretValue as read, resetSecretsClient } from '#shared/provider-secrets';
import { PLACEHOLDER_MARK, type RailsProviderName } from './providers';
import type { BankSecrets } from './rails-secrets';

// A provider's two secrets: its API key and the secret its webhook notices are signed with.
// In AWS they live in Secrets Manager (the stack creates both, the operator sets their
// values; docs/deploy.md#real-rails-increase) and a function reads those whose ARN it is
// given (its row's `bank.secrets`: the webhook secret only where notices are read), once
// per container, with its own execution role; locally both come from the environment. They
// are never logged: the object serialises without them, and the logger redacts `apiKey`
// and `*secret*` keys besides.

export type { BankSecrets };
export { PLACEHOLDER_MARK };

let cached: Promise<BankSecrets> | undefined;

/**
 * The provider's secrets, read once per container; a failed read is forgotten, so the next
 * call reads again (a throttled request, or a secret the operator has just set).
 */
export function bankSecrets(provider: RailsProviderName): Promise<BankSecrets> {
  cached ??= readSecrets(provider).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/** Forget what was read (tests that change the environment). */
export function resetBankSecrets(): void {
  cached = undefined;
  resetSecretsClient();
}

async function readSecrets(provider: RailsProviderName): Promise<BankSecrets> {
  const apiKeyArn = optionalEnv(ENV.bankApiKeySecretArn);
  const webhookArn = optionalEnv(ENV.bankWebhookSecretArn);
  if (!apiKeyArn && !webhookArn) return hidden(localSecrets(provider));
  if (!apiKeyArn) {
    throw new ConfigError(
      `${ENV.bankWebhookSecretArn} is set without ${ENV.bankApiKeySecretArn}: every function that calls the bank reads its API key (name apiKey in its row's bank.secrets, lib/service/)`,
    );
  }
  const [apiKey, webhookSecret] = await Promise.all([
    secretValue(apiKeyArn),
    webhookArn ? secretValue(webhookArn) : undefined,
  ]);
  return hidden({ apiKey, ...(webhookSecret !== undefined && { webhookSecret }) });
}

const secretValue = (arn: string): Promise<string> => read(arn, 'docs/deploy.md#real-rails-increase');

/** Locally: `INCREASE_API_KEY` and `INCREASE_WEBHOOK_SECRET` (docs/local.md). */
function localSecrets(provider: RailsProviderName): BankSecrets {
  const names = { increase: [ENV.increaseApiKey, ENV.increaseWebhookSecret] } as const;
  const [apiKeyName, webhookName] = names[provider];
  const apiKey = optionalEnv(apiKeyName);
  const webhookSecret = optionalEnv(webhookName);
  if (!apiKey || !webhookSecret) {
    throw new ConfigError(
      `BANK_PROVIDER is ${provider}: set ${apiKeyName} and ${webhookName} (locally), or ${ENV.bankApiKeySecretArn} and ${ENV.bankWebhookSecretArn} (the stack sets them)`,
    );
  }
  return { apiKey, webhookSecret };
}
