import type { Construct } from 'constructs';
import type { BankSettings } from '#lib/context/bank-provider';
import type { BankAccess } from '#lib/service/index';
import type { RailsProviderName } from '#shared/bank/providers';
import type { BankSecretName } from '#shared/bank/rails-secrets';
import { ProviderSecrets } from './provider-secrets';

export interface BankSecretsProps {
  /** The provider whose secrets these are (in their descriptions). */
  readonly provider: RailsProviderName;
  /**
   * A role that may read both secrets beside the functions granted them (`confineReads`):
   * the operators' way in, for an emergency (context `bankSecretsBreakGlassRoleArn`).
   * @default - none: only the readers' own roles
   */
  readonly breakGlassRoleArn?: string;
}

/**
 * The two secrets of a provider on real rails (./provider-secrets.ts): its API key and the
 * secret its webhook notices are signed with (docs/deploy.md#real-rails-increase).
 */
export class BankSecrets extends ProviderSecrets<BankSecretName> {
  constructor(scope: Construct, id: string, props: BankSecretsProps) {
    super(scope, id, {
      secrets: {
        apiKey: { id: 'ApiKey', description: `the ${props.provider} API key the bank functions call with` },
        webhookSecret: {
          id: 'WebhookSecret',
          description: `the secret ${props.provider} signs its webhook notices with (POST /bank/notices)`,
        },
      },
      docs: 'docs/deploy.md#real-rails-increase',
      breakGlassRoleArn: props.breakGlassRoleArn,
    });
  }

  get apiKey() {
    return this.secret('apiKey');
  }

  get webhookSecret() {
    return this.secret('webhookSecret');
  }
}

/** What a function that calls the bank is bound to: the stack's bank settings, and the secrets when on rails. */
export interface BankBinding {
  readonly settings: BankSettings;
  /** Present exactly when the settings name a provider on rails. */
  readonly secrets?: BankSecrets;
}

/** One function's bank: the stack's, and what its row reads of it (`bank` in lib/service/). */
export interface FunctionBank {
  readonly binding: BankBinding;
  readonly access: BankAccess;
}
