import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENV } from '#shared/config';
import { resetDependencies } from '#shared/dependencies';
import { identityVendor } from '#shared/identity-vendor/index';
import { openVendor, resetVendorSecret } from '#shared/identity-vendor/open-vendor';
import { PLAID_ENV } from '#shared/identity-vendor/vendors';
import { PLACEHOLDER_MARK } from '#shared/secret-placeholder';

/** Which vendor a function opens, and the vendor's secret: Secrets Manager in AWS, the environment locally, never shown. */
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:IdentityVendorSecret-abc';
const secretsManager = mockClient(SecretsManagerClient);
const VARIABLES = [ENV.identityVendor, ENV.identityVendorSecretArn, ...Object.values(PLAID_ENV)];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

beforeEach(() => {
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, { [PLAID_ENV.clientId]: 'client', [PLAID_ENV.templateId]: 'idvtmp_x' });
  secretsManager.reset();
  resetVendorSecret();
  resetDependencies();
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetVendorSecret();
  resetDependencies();
});

describe('the identity vendor a function opens', () => {
  it('is the sandbox vendor when IDENTITY_VENDOR is unset, Plaid when it says plaid, and refuses any other', async () => {
    expect(identityVendor().name).toBe('sandbox');
    resetDependencies();
    process.env[ENV.identityVendor] = 'plaid';
    expect(identityVendor().name).toBe('plaid');
    resetDependencies();
    process.env[ENV.identityVendor] = 'acme';
    expect(() => identityVendor()).toThrow(/IDENTITY_VENDOR must be one of sandbox, plaid, not "acme"/);
  });

  it('reads Plaid’s secret by the ARN the stack gives, once per container', async () => {
    process.env[ENV.identityVendorSecretArn] = ARN;
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'plaid-secret' });
    const vendor = await openVendor('plaid');
    await openVendor('plaid');
    expect(vendor.name).toBe('plaid');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(JSON.stringify(vendor)).not.toContain('plaid-secret');
  });

  it('refuses the stack’s placeholder, naming the command that sets the secret, and reads again on the next call', async () => {
    process.env[ENV.identityVendorSecretArn] = ARN;
    secretsManager
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: JSON.stringify({ [PLACEHOLDER_MARK]: 'x' }) });
    await expect(openVendor('plaid')).rejects.toThrow(/put-secret-value --secret-id .*IdentityVendorSecret/);
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'plaid-secret' });
    expect((await openVendor('plaid')).name).toBe('plaid');
  });

  it('takes PLAID_SECRET locally, and says what to set without it', async () => {
    await expect(openVendor('plaid')).rejects.toThrow(/set PLAID_SECRET \(locally\), or IDENTITY_VENDOR_SECRET_ARN/);
    process.env[PLAID_ENV.secret] = 'local-secret';
    expect((await openVendor('plaid')).name).toBe('plaid');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
