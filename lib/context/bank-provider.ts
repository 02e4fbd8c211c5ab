import type { Construct } from 'constructs';
import {
  BANK_PROVIDERS,
  type BankProviderName,
  INCREASE_ENVIRONMENTS,
  type IncreaseEnvironment,
} from '#shared/bank/providers';
import { isUnset, roleArnOf } from './context-values';

/**
 * The CDK context keys that choose the rails (docs/deploy.md#real-rails-increase). Values
 * given on the command line (`-c bankProvider=increase`) arrive as strings, as they do in
 * cdk.json.
 */
export const BANK_CONTEXT = {
  provider: 'bankProvider',
  increaseEnvironment: 'increaseEnvironment',
  increaseAccountId: 'increaseAccountId',
  statementName: 'bankStatementName',
  breakGlassRoleArn: 'bankSecretsBreakGlassRoleArn',
} as const;

/** Beside the 4-character code and a space, in Nacha's 16-character company name (docs/api.md#what-a-holder-sees). */
const STATEMENT_NAME = /^[\x21-\x7E](?:[\x20-\x7E]{0,9}[\x21-\x7E])?$/;
/** What Increase's sandbox shows when no name is set: production must name one the holders recognise. */
const SANDBOX_STATEMENT_NAME = 'VERIFY';

/** Increase's object ids: `account_in71c4amph0vgo2qllky` (a sandbox's may carry a prefix before `account_`). */
const INCREASE_ACCOUNT_ID = /^[a-z_]*account_[a-z0-9]+$/i;

/** Increase's settings in a stack on its rails: none of them secret (the API key and webhook secret are in Secrets Manager). */
export interface IncreaseSettings {
  /** The Increase account prenotifications and statement credits are sent from (`INCREASE_ACCOUNT_ID`). */
  readonly accountId: string;
  /**
   * Increase's own environment (`INCREASE_ENVIRONMENT`): its sandbox moves no money.
   * @default 'sandbox'
   */
  readonly environment: IncreaseEnvironment;
  /**
   * The name a holder sees beside the statement code when the account has no `sender_name`
   * (`BANK_STATEMENT_NAME`): Nacha wants a name the receiver recognises.
   * @default 'VERIFY' on Increase's sandbox; required in production
   */
  readonly statementName: string;
}

/** Which bank the functions that call one use, and its settings. */
export type BankSettings =
  | { readonly provider: 'sandbox' }
  | {
      readonly provider: 'increase';
      readonly increase: IncreaseSettings;
      /**
       * A role that may read the provider's secrets beside the functions that read them
       * (each secret's resource policy denies everyone else): an operator's way in, for an
       * emergency. Context `bankSecretsBreakGlassRoleArn`.
       * @default - none: only the functions' own roles may read them
       */
      readonly breakGlassRoleArn?: string;
    };

/** Whether the settings name real rails (a provider with secrets, notices and a webhook route). */
export const onRails = (settings: BankSettings): settings is Extract<BankSettings, { provider: 'increase' }> =>
  settings.provider !== 'sandbox';

/** Reads and validates the bank context; throws with the key's name and the way out on bad input. */
export function bankSettingsFromContext(scope: Construct): BankSettings {
  const read = (key: string): unknown => scope.node.tryGetContext(key);
  const provider = read(BANK_CONTEXT.provider);
  const name: BankProviderName = isUnset(provider) ? 'sandbox' : providerName(provider);
  const accountId = read(BANK_CONTEXT.increaseAccountId);
  const environment = read(BANK_CONTEXT.increaseEnvironment);
  const statementName = read(BANK_CONTEXT.statementName);
  const breakGlass = read(BANK_CONTEXT.breakGlassRoleArn);
  if (name !== 'increase') {
    for (const [key, value] of [
      [BANK_CONTEXT.increaseAccountId, accountId],
      [BANK_CONTEXT.increaseEnvironment, environment],
      [BANK_CONTEXT.statementName, statementName],
    ] as const) {
      if (!isUnset(value)) {
        throw new Error(
          `context "${key}" is an Increase setting, but context "${BANK_CONTEXT.provider}" is ${name}: add -c ${BANK_CONTEXT.provider}=increase or drop it`,
        );
      }
    }
    if (!isUnset(breakGlass)) {
      throw new Error(
        `context "${BANK_CONTEXT.breakGlassRoleArn}" names who may read the bank's secrets, which exist only on real rails, but context "${BANK_CONTEXT.provider}" is ${name}: add -c ${BANK_CONTEXT.provider}=increase or drop it`,
      );
    }
    return { provider: 'sandbox' };
  }
  const env = isUnset(environment) ? 'sandbox' : increaseEnvironment(environment);
  return {
    provider: 'increase',
    increase: {
      accountId: increaseAccountId(accountId),
      environment: env,
      statementName: statementNameOf(statementName, env),
    },
    ...(!isUnset(breakGlass) && {
      breakGlassRoleArn: roleArnOf(BANK_CONTEXT.breakGlassRoleArn, breakGlass, 'BankSecretsBreakGlass'),
    }),
  };
}

function statementNameOf(value: unknown, environment: IncreaseEnvironment): string {
  if (value === undefined || value === null) {
    if (environment === 'sandbox') return SANDBOX_STATEMENT_NAME;
    throw new Error(
      `context "${BANK_CONTEXT.statementName}" is required with ${BANK_CONTEXT.increaseEnvironment}=production: the name account holders recognise on their statement beside the statement code (Nacha's Micro-Entry rule), e.g. -c ${BANK_CONTEXT.statementName}=ACME`,
    );
  }
  if (typeof value !== 'string' || !STATEMENT_NAME.test(value)) {
    throw new Error(
      `context "${BANK_CONTEXT.statementName}" must be 1 to 11 printable ASCII characters (the statement code takes the other 5 of Nacha's 16), not starting or ending with a space; got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function providerName(value: unknown): BankProviderName {
  if (!(BANK_PROVIDERS as readonly unknown[]).includes(value)) {
    throw new Error(
      `context "${BANK_CONTEXT.provider}" must be one of ${BANK_PROVIDERS.join(', ')}; got ${JSON.stringify(value)}`,
    );
  }
  return value as BankProviderName;
}

function increaseAccountId(value: unknown): string {
  if (isUnset(value)) {
    throw new Error(
      `context "${BANK_CONTEXT.increaseAccountId}" is required with ${BANK_CONTEXT.provider}=increase: the id of the Increase account entries are sent from (account_…, in Increase's dashboard under Accounts)`,
    );
  }
  if (typeof value !== 'string' || !INCREASE_ACCOUNT_ID.test(value)) {
    throw new Error(
      `context "${BANK_CONTEXT.increaseAccountId}" must be an Increase account id such as account_in71c4amph0vgo2qllky; got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function increaseEnvironment(value: unknown): IncreaseEnvironment {
  if (!(INCREASE_ENVIRONMENTS as readonly unknown[]).includes(value)) {
    throw new Error(
      `context "${BANK_CONTEXT.increaseEnvironment}" must be one of ${INCREASE_ENVIRONMENTS.join(', ')}; got ${JSON.stringify(value)}`,
    );
  }
  return value as IncreaseEnvironment;
}
