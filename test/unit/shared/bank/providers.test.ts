import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BankOutcome, BankProvider } from '#shared/bank/bank-provider';
import { DeferredBank } from '#shared/bank/deferred-bank';
import { bank } from '#shared/bank/index';
import { openRails } from '#shared/bank/open-rails';
import type { RailsFactories } from '#shared/bank/providers';
import { SandboxBank } from '#shared/bank/sandbox-bank';
import { resetBankSecrets } from '#shared/bank/secrets';
import { ConfigError, ENV } from '#shared/config';
import { resetDependencies } from '#shared/dependencies';

const ACCOUNT = {
  tenant: 't',
  id: 'a',
  routing_number: '021000021',
  account_number: '1234567890',
  account_holder_name: 'Jane',
};
const OUTCOME: BankOutcome = {
  tenant: 't',
  id: 'a',
  kind: 'status',
  reference: 'ach_prenotification_1',
  returned: { verification_status: 'closed' },
};

/** A provider on rails as a factory would build it: records what it was asked, answers a notice. */
function fakeProvider(): BankProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'increase',
    checksOwnership: false,
    calls,
    checkAccount: async () => {
      calls.push('checkAccount');
      return { verification_status: 'valid', debit_status: 'valid' };
    },
    checkDebits: async () => ({ verification_status: 'valid', debit_status: 'valid' }),
    checkOwnership: async () => ({}),
    readNotice: async (body) => {
      calls.push(`readNotice ${body}`);
      return [OUTCOME];
    },
    sendStatementCredit: async () => ({ statementCode: 'AB12', sentAt: new Date(0) }),
    confirmSilence: async (kind, reference) => {
      calls.push(`confirmSilence ${kind} ${reference}`);
      return 'unsent';
    },
  };
}

const VARIABLES = [
  ENV.bankProvider,
  ENV.increaseAccountId,
  ENV.increaseEnvironment,
  ENV.increaseApiKey,
  ENV.increaseWebhookSecret,
  ENV.increaseBaseUrl,
  ENV.bankStatementName,
  ENV.bankApiKeySecretArn,
  ENV.bankWebhookSecretArn,
];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
beforeEach(() => {
  for (const name of VARIABLES) delete process.env[name];
  resetDependencies();
  resetBankSecrets();
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetDependencies();
  resetBankSecrets();
});

describe('the bank port chooses the provider from BANK_PROVIDER', () => {
  it('is the sandbox bank when BANK_PROVIDER is unset or sandbox', () => {
    expect(bank()).toBeInstanceOf(SandboxBank);
    resetDependencies();
    process.env[ENV.bankProvider] = 'sandbox';
    expect(bank()).toBeInstanceOf(SandboxBank);
    // The sandbox matches ownership (docs/sandbox.md), so it is given the SSN or tax id.
    expect(bank().checksOwnership).toBe(true);
  });

  it('is a provider on rails, named at once, that opens on first use (the port stays synchronous)', () => {
    process.env[ENV.bankProvider] = 'increase';
    const provider = bank();
    expect(provider).toBeInstanceOf(DeferredBank);
    expect(provider.name).toBe('increase');
  });

  it('refuses a provider it does not know, naming the ones it does', () => {
    process.env[ENV.bankProvider] = 'orum';
    expect(() => bank()).toThrow(new ConfigError('BANK_PROVIDER must be one of sandbox, increase, not "orum"'));
  });
});

describe('a deferred bank', () => {
  it('opens its provider once, on first use, and delegates every call to it, notices included', async () => {
    const provider = fakeProvider();
    const open = vi.fn(async () => provider);
    const deferred = new DeferredBank('increase', open);
    expect(open).not.toHaveBeenCalled();
    await deferred.checkAccount(ACCOUNT, 1);
    expect(await deferred.readNotice('{"id":"n"}', {})).toEqual([OUTCOME]);
    expect(open).toHaveBeenCalledTimes(1);
    expect(provider.calls).toEqual(['checkAccount', 'readNotice {"id":"n"}']);
  });

  it('asks its provider to confirm a silence at the end of a window, so a prenotification never sent is not taken for valid', async () => {
    const provider = fakeProvider();
    const deferred = new DeferredBank('increase', async () => provider);
    expect(await deferred.confirmSilence('status', 'pre-1')).toBe('unsent');
    expect(provider.calls).toEqual(['confirmSilence status pre-1']);
  });

  it('opens again after a failed opening (a secret not set yet), rather than failing every later call', async () => {
    const open = vi
      .fn<() => Promise<BankProvider>>()
      .mockRejectedValueOnce(new Error('unreachable'))
      .mockResolvedValue(fakeProvider());
    const deferred = new DeferredBank('increase', open);
    await expect(deferred.checkAccount(ACCOUNT, 1)).rejects.toThrow('unreachable');
    await expect(deferred.checkAccount(ACCOUNT, 1)).resolves.toMatchObject({ verification_status: 'valid' });
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('says whether its provider checks ownership from the provider’s name alone, without opening it (Increase: no)', () => {
    const open = vi.fn(async () => fakeProvider());
    expect(new DeferredBank('increase', open).checksOwnership).toBe(false);
    expect(open).not.toHaveBeenCalled();
  });

  it('refuses a notice when its provider reads none', async () => {
    const { readNotice: _, ...noNotices } = fakeProvider();
    const deferred = new DeferredBank('increase', async () => noNotices);
    await expect(deferred.readNotice('{}', {})).rejects.toThrow('the increase bank reads no notices');
  });
});

describe('opening the rails: the factory gets both secrets and the settings', () => {
  it('locally, from INCREASE_API_KEY, INCREASE_WEBHOOK_SECRET and INCREASE_BASE_URL, on Increase’s sandbox by default', async () => {
    Object.assign(process.env, {
      [ENV.increaseAccountId]: 'account_local1',
      [ENV.increaseApiKey]: 'key-1',
      [ENV.increaseWebhookSecret]: 'whsec-1',
      [ENV.increaseBaseUrl]: 'http://127.0.0.1:4010',
    });
    const provider = fakeProvider();
    const factory = vi.fn(async () => provider);
    expect(await openRails('increase', { increase: factory } satisfies RailsFactories)).toBe(provider);
    expect(factory).toHaveBeenCalledWith(
      { apiKey: 'key-1', webhookSecret: 'whsec-1' },
      { accountId: 'account_local1', environment: 'sandbox', baseURL: 'http://127.0.0.1:4010' },
    );
  });

  it('passes the statement name the stack sets (BANK_STATEMENT_NAME) to the adapter', async () => {
    Object.assign(process.env, {
      [ENV.increaseAccountId]: 'account_local1',
      [ENV.increaseApiKey]: 'key-1',
      [ENV.increaseWebhookSecret]: 'whsec-1',
      [ENV.bankStatementName]: 'NORTHWIND',
    });
    const factory = vi.fn(async () => fakeProvider());
    await openRails('increase', { increase: factory });
    expect(factory).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ statementName: 'NORTHWIND' }));
  });

  it('names what is missing and where it comes from', async () => {
    process.env[ENV.increaseAccountId] = 'account_local1';
    const factory = vi.fn(async () => fakeProvider());
    await expect(openRails('increase', { increase: factory })).rejects.toThrow(
      /INCREASE_API_KEY and INCREASE_WEBHOOK_SECRET.*BANK_API_KEY_SECRET_ARN/,
    );
    expect(factory).not.toHaveBeenCalled();
  });

  it('refuses an Increase environment other than sandbox or production', async () => {
    Object.assign(process.env, {
      [ENV.increaseAccountId]: 'account_local1',
      [ENV.increaseEnvironment]: 'live',
      [ENV.increaseApiKey]: 'k',
      [ENV.increaseWebhookSecret]: 'w',
    });
    await expect(openRails('increase', { increase: async () => fakeProvider() })).rejects.toThrow(
      'INCREASE_ENVIRONMENT must be one of sandbox, production, not "live"',
    );
  });
});

describe('the rails providers the stack can name', () => {
  it('builds the Increase adapter from its secrets and settings', async () => {
    const { RAILS_PROVIDERS } = await import('#shared/bank/providers');
    const built = await RAILS_PROVIDERS.increase(
      { apiKey: 'key_test', webhookSecret: 'whsec_test' },
      { accountId: 'account_in71c4amph0vgo2qllky', environment: 'sandbox', baseURL: 'http://127.0.0.1:9' },
    );
    expect(built.name).toBe('increase');
    expect(built.readNotice).toBeTypeOf('function');
    // What the bank port says of Increase before opening it (`DeferredBank`) is what its adapter says.
    expect(built.checksOwnership).toBe(false);
    expect(new DeferredBank('increase', async () => built).checksOwnership).toBe(built.checksOwnership);
  });
});
