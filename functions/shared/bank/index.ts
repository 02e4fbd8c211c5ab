import { ConfigError, ENV, optionalEnv } from '#shared/config';
import { now, port } from '#shared/dependencies';
import type { BankProvider } from './bank-provider';
import { DeferredBank } from './deferred-bank';
import { BANK_PROVIDERS, type BankProviderName } from './providers';
import { SandboxBank } from './sandbox-bank';

/**
 * Defined when the CDK bundles a function (`ServiceFunction`'s `bank`): true only for a
 * function of a row with `bank` in a stack on real rails. Where it is false the bundle
 * leaves the rails out (the Secrets Manager client, the adapters); unbundled (local
 * runtime, tests) it is undefined and both are there.
 */
declare const BANK_RAILS_IN_BUNDLE: boolean | undefined;

/**
 * The bank of `BANK_PROVIDER` (docs/deploy.md#real-rails-increase): the sandbox bank
 * (docs/sandbox.md) when unset, or a provider on real rails, opened on first use.
 */
export const bank = /* @__PURE__ */ port('bank', () => bankOf(bankProviderName()));

function bankOf(name: BankProviderName): BankProvider {
  if (name === 'sandbox') return new SandboxBank(now);
  // Inline, so that esbuild drops the rails where the constant is false.
  if (typeof BANK_RAILS_IN_BUNDLE === 'undefined' || BANK_RAILS_IN_BUNDLE) {
    return new DeferredBank(name, async () => (await import('./open-rails')).openRails(name));
  }
  throw new ConfigError(`${ENV.bankProvider} is ${name}, but this function was bundled for the sandbox bank`);
}

function bankProviderName(): BankProviderName {
  const name = optionalEnv(ENV.bankProvider) ?? 'sandbox';
  if (!(BANK_PROVIDERS as readonly string[]).includes(name)) {
    throw new ConfigError(`${ENV.bankProvider} must be one of ${BANK_PROVIDERS.join(', ')}, not "${name}"`);
  }
  return name as BankProviderName;
}

declare module '#shared/dependencies' {
  interface Dependencies {
    bank: BankProvider;
  }
}
