import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError } from '#shared/config';
import { PLACEHOLDER_MARK } from '#shared/secret-placeholder';

// Reading a provider's secrets (the bank's, the identity vendor's) from Secrets Manager: the
// stack creates each with a placeholder the operator replaces, and grants it to the
// functions whose rows name it (lib/constructs/provider-secrets.ts). A function reads with
// its own execution role, never a tenant role's: each secret's resource policy denies
// reading it to every role but its readers'.

let client: SecretsManagerClient | undefined;

/** Forget the client (tests that change the environment). */
export function resetSecretsClient(): void {
  client = undefined;
}

/** A secret's value; one still holding the stack's placeholder is refused with the command that sets it. */
export async function secretValue(arn: string, docs: string): Promise<string> {
  client ??= new SecretsManagerClient({});
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new ConfigError(`secret ${arn} holds no string`);
  if (isPlaceholder(SecretString)) {
    throw new ConfigError(
      `secret ${arn} still holds the stack's placeholder: set the provider's value with aws secretsmanager put-secret-value --secret-id ${arn} --secret-string … (${docs})`,
    );
  }
  return SecretString;
}

function isPlaceholder(value: string): boolean {
  if (!value.startsWith('{')) return false;
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'object' && parsed !== null && PLACEHOLDER_MARK in parsed;
  } catch {
    return false;
  }
}

/** The values, with a `toJSON` that shows none: a secret passed to a log line or an error stays out of it. */
export function hidden<T extends object>(secrets: T): Readonly<T> {
  const redacted = Object.fromEntries(Object.keys(secrets).map((name) => [name, '[redacted]']));
  return Object.freeze(Object.defineProperty({ ...secrets }, 'toJSON', { value: () => redacted, enumerable: false }));
}
