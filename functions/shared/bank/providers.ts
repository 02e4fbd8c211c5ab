import type { BankProvider } from './bank-provider';
import type { BankSecrets } from './rails-secrets';

// The banks a stack can use, by name (CDK context `bankProvider`, `BANK_PROVIDER` at run
// time): the sandbox bank, which needs nothing, and the providers on real rails, each built
// by an async factory from its secrets and its settings. Adding a provider is one entry
// in RAILS_PROVIDERS (and its settings); nothing here imports an adapter until it is opened.

export const BANK_PROVIDERS = ['sandbox', 'increase'] as const;
export type BankProviderName = (typeof BANK_PROVIDERS)[number];
/** A provider on real rails: secrets, signed notices, a webhook route. */
export type RailsProviderName = Exclude<BankProviderName, 'sandbox'>;

/** Increase's environments: its sandbox moves no money (docs/deploy.md#real-rails-increase). */
export const INCREASE_ENVIRONMENTS = ['sandbox', 'production'] as const;
export type IncreaseEnvironment = (typeof INCREASE_ENVIRONMENTS)[number];

/** What an Increase bank is built from beside its secrets: none of it secret. */
export interface IncreaseRailsSettings {
  /** The Increase account entries are sent from. */
  readonly accountId: string;
  readonly environment: IncreaseEnvironment;
  /** The name beside the statement code when an account has no sender name; the adapter's default when absent. */
  readonly statementName?: string;
  /** Another API base URL: a local fake of Increase's API (tests, `npm start`); never set by the stack. */
  readonly baseURL?: string;
}

/**
 * Whether each rails provider's adapter checks ownership (its `checksOwnership`), known
 * before it is opened: settling a verification decides by it whether to decrypt the SSN or
 * tax id at all. Increase answers every ownership field `not_found` (ACH carries none).
 */
export const RAILS_CHECKS_OWNERSHIP: Readonly<Record<RailsProviderName, boolean>> = { increase: false };

/** The key of the placeholder the stack generates in a secret (#shared/secret-placeholder). */
export { PLACEHOLDER_MARK } from '#shared/secret-placeholder';

/** Each provider's factory: its secrets and settings in, the adapter out. */
export interface RailsFactories {
  increase(secrets: BankSecrets, settings: IncreaseRailsSettings): Promise<BankProvider>;
}

/** The adapters, each opened only when its stack names it (functions/shared/bank/increase/). */
export const RAILS_PROVIDERS: RailsFactories = {
  increase: async (secrets, settings) =>
    new (await import('./increase/increase-bank')).IncreaseBank({ ...secrets, ...settings }),
};

/**
 * The constant the CDK defines in every function's bundle (`ServiceFunction`): true only
 * for a function that calls the bank in a stack on real rails, the only bundles that then
 * carry the rails (functions/shared/bank/index.ts).
 */
export const BANK_RAILS_BUNDLE_CONSTANT = 'BANK_RAILS_IN_BUNDLE';
