import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { BankSettings } from '#lib/context/bank-provider';
import type { BankAccess } from '#lib/service/index';
import { PLACEHOLDER_MARK, type RailsProviderName } from '#shared/bank/providers';
import type { BankSecretName } from '#shared/bank/rails-secrets';

export interface BankSecretsProps {
  /** The provider whose secrets these are (in their descriptions). */
  readonly provider: RailsProviderName;
}

/**
 * The two secrets of a provider on real rails, in Secrets Manager: its API key and the
 * secret its webhook notices are signed with. The stack creates them with a generated
 * placeholder (a JSON object the functions refuse, naming the command that sets the real
 * value); the operator sets the provider's values (docs/deploy.md#real-rails-increase).
 * Retained: deleting the stack must not lose a key the provider issued. Encrypted with the
 * account's `aws/secretsmanager` key, so `secretsmanager:GetSecretValue` alone reads them;
 * each function is granted exactly the secrets its row reads (`grantRead`).
 */
export class BankSecrets extends Construct {
  readonly apiKey: Secret;
  readonly webhookSecret: Secret;

  constructor(scope: Construct, id: string, props: BankSecretsProps) {
    super(scope, id);
    const stage = Stack.of(this).stackName;
    this.apiKey = this.created('ApiKey', `${stage}: the ${props.provider} API key the bank functions call with`);
    this.webhookSecret = this.created(
      'WebhookSecret',
      `${stage}: the secret ${props.provider} signs its webhook notices with (POST /bank/notices)`,
    );
  }

  /** A secret by the name a row gives it (`bank.secrets`). */
  secret(name: BankSecretName): Secret {
    return { apiKey: this.apiKey, webhookSecret: this.webhookSecret }[name];
  }

  /** Lets a function's own role read exactly the secrets named: `secretsmanager:GetSecretValue` on those, nothing else. */
  grantRead(names: readonly BankSecretName[], role: IRole): void {
    if (names.length === 0) return;
    const secrets = [...new Set(names)].map((name) => this.secret(name));
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: secrets.map((secret) => secret.secretArn),
      }),
    );
  }

  private created(id: string, description: string): Secret {
    const secret = new Secret(this, id, {
      description: `${description}. Set it with aws secretsmanager put-secret-value (docs/deploy.md#real-rails-increase).`,
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ [PLACEHOLDER_MARK]: 'set the provider’s value: docs/deploy.md' }),
        generateStringKey: 'placeholder',
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The provider issues this value (an API key from its dashboard, the webhook secret it signs with); Secrets Manager cannot rotate it on the provider’s side. It is rotated by the operator: a new value from the provider, then put-secret-value (docs/deploy.md#real-rails-increase).',
    });
    return secret;
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
