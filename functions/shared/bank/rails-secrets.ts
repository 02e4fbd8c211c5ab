import { ConfigError, ENV } from '#shared/config';

// What a rails provider's secrets are, by name, and where each one's ARN reaches a function
// (./secrets.ts reads them; the stack grants each to the rows that name it). Apart from
// ./providers.ts, which opens the adapters, so an adapter can name its secrets without an
// import cycle.

/**
 * A rails provider's two secrets: its API key, which every function that calls the bank
 * reads, and the key its notices are signed with, which only a function that reads notices
 * is given (its row's `bank.secrets`).
 */
export interface BankSecrets {
  readonly apiKey: string;
  readonly webhookSecret?: string;
}

/** The secrets by name, as a row names those its function reads (`bank.secrets` in lib/service/). */
export type BankSecretName = keyof BankSecrets;

/** The variable each secret's ARN reaches a function in (set by the stack for the secrets its row reads). */
export const BANK_SECRET_ARN_ENV = {
  apiKey: ENV.bankApiKeySecretArn,
  webhookSecret: ENV.bankWebhookSecretArn,
} as const satisfies Record<BankSecretName, string>;

const SECRET_WORDS: Readonly<Record<BankSecretName, string>> = { apiKey: 'API key', webhookSecret: 'webhook secret' };

/**
 * What an adapter does when asked for work that needs a secret its function was not given
 * (its row's `bank.secrets` does not name it): a misconfiguration (500, retried), never
 * taken for the provider's fault, nor for a forged notice (401).
 */
export function missingBankSecret(name: BankSecretName): never {
  throw new ConfigError(
    `this function was given no ${SECRET_WORDS[name]} of the bank (${BANK_SECRET_ARN_ENV[name]}): name ${name} in its row's bank.secrets (lib/service/)`,
  );
}
