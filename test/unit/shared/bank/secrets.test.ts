import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bankSecrets, PLACEHOLDER_MARK, resetBankSecrets } from '#shared/bank/secrets';
import { ENV } from '#shared/config';
import { createLogger } from '#shared/logger';
import { captureLogs } from '#test/support/logs';

const API_KEY_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:BankApiKey-abc';
const WEBHOOK_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:BankWebhookSecret-def';
const secretsManager = mockClient(SecretsManagerClient);
const lines = captureLogs();
const VARIABLES = [ENV.bankApiKeySecretArn, ENV.bankWebhookSecretArn, ENV.increaseApiKey, ENV.increaseWebhookSecret];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

const answer = (values: Record<string, string>) =>
  secretsManager.on(GetSecretValueCommand).callsFake(({ SecretId }: { SecretId: string }) => ({
    SecretString: values[SecretId],
  }));

beforeEach(() => {
  for (const name of VARIABLES) delete process.env[name];
  process.env[ENV.bankApiKeySecretArn] = API_KEY_ARN;
  process.env[ENV.bankWebhookSecretArn] = WEBHOOK_ARN;
  secretsManager.reset();
  resetBankSecrets();
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetBankSecrets();
});

describe('the bank’s secrets in AWS (Secrets Manager)', () => {
  it('reads both secrets by the ARNs the stack gives, once per container however often they are asked for', async () => {
    answer({ [API_KEY_ARN]: 'key-live', [WEBHOOK_ARN]: 'whsec-live' });
    const [first, second] = await Promise.all([bankSecrets('increase'), bankSecrets('increase')]);
    expect(first).toMatchObject({ apiKey: 'key-live', webhookSecret: 'whsec-live' });
    expect(await bankSecrets('increase')).toBe(first);
    expect(second).toBe(first);
    expect(
      secretsManager
        .commandCalls(GetSecretValueCommand)
        .map((call) => call.args[0].input.SecretId)
        .sort(),
    ).toEqual([API_KEY_ARN, WEBHOOK_ARN].sort());
  });

  it('reads only the API key where the stack gives only its ARN (a function that reads no notices), once per container', async () => {
    delete process.env[ENV.bankWebhookSecretArn];
    answer({ [API_KEY_ARN]: 'key-live', [WEBHOOK_ARN]: 'whsec-live' });
    const first = await bankSecrets('increase');
    expect(await bankSecrets('increase')).toBe(first);
    expect(first.apiKey).toBe('key-live');
    expect(first.webhookSecret).toBeUndefined();
    expect(secretsManager.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input.SecretId)).toEqual([
      API_KEY_ARN,
    ]);
  });

  it('refuses the webhook secret’s ARN without the API key’s: every function that calls the bank reads its API key', async () => {
    delete process.env[ENV.bankApiKeySecretArn];
    process.env[ENV.increaseApiKey] = 'key-local';
    process.env[ENV.increaseWebhookSecret] = 'whsec-local';
    await expect(bankSecrets('increase')).rejects.toThrow(
      'BANK_WEBHOOK_SECRET_ARN is set without BANK_API_KEY_SECRET_ARN',
    );
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('reads again after a failure, so a container recovers once Secrets Manager answers', async () => {
    secretsManager.on(GetSecretValueCommand).rejectsOnce(new Error('throttled'));
    await expect(bankSecrets('increase')).rejects.toThrow('throttled');
    answer({ [API_KEY_ARN]: 'key-live', [WEBHOOK_ARN]: 'whsec-live' });
    await expect(bankSecrets('increase')).resolves.toMatchObject({ apiKey: 'key-live' });
  });

  it('refuses the stack’s placeholder, naming the secret and the command that sets it, never a value', async () => {
    const placeholder = JSON.stringify({ [PLACEHOLDER_MARK]: 'set me', password: 'generated-123' });
    answer({ [API_KEY_ARN]: placeholder, [WEBHOOK_ARN]: 'whsec-live' });
    const failure = bankSecrets('increase');
    await expect(failure).rejects.toThrow(
      `secret ${API_KEY_ARN} still holds the stack's placeholder: set the provider's value with aws secretsmanager put-secret-value --secret-id ${API_KEY_ARN}`,
    );
    await expect(failure).rejects.not.toThrow('generated-123');
  });

  it('refuses an empty secret', async () => {
    answer({ [API_KEY_ARN]: 'key-live' });
    await expect(bankSecrets('increase')).rejects.toThrow(`secret ${WEBHOOK_ARN} holds no string`);
  });

  it('never shows a value when logged or serialised', async () => {
    answer({ [API_KEY_ARN]: 'key-live', [WEBHOOK_ARN]: 'whsec-live' });
    const secrets = await bankSecrets('increase');
    createLogger().info('opened', { secrets, apiKey: secrets.apiKey });
    expect(JSON.stringify(secrets)).not.toMatch(/key-live|whsec-live/);
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toMatch(/key-live|whsec-live/);
  });
});

describe('the bank’s secrets locally (no Secrets Manager)', () => {
  it('come from INCREASE_API_KEY and INCREASE_WEBHOOK_SECRET when no secret ARN is set', async () => {
    delete process.env[ENV.bankApiKeySecretArn];
    delete process.env[ENV.bankWebhookSecretArn];
    process.env[ENV.increaseApiKey] = 'key-local';
    process.env[ENV.increaseWebhookSecret] = 'whsec-local';
    await expect(bankSecrets('increase')).resolves.toMatchObject({ apiKey: 'key-local', webhookSecret: 'whsec-local' });
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
