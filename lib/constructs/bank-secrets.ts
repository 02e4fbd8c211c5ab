import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AnyPrincipal, Effect, type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { ResourcePolicy, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { BankSettings } from '#lib/context/bank-provider';
import type { BankAccess } from '#lib/service/index';
import { PLACEHOLDER_MARK, type RailsProviderName } from '#shared/bank/providers';
import { BANK_SECRET_ARN_ENV, type BankSecretName } from '#shared/bank/rails-secrets';

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
 * The two secrets of a provider on real rails, in Secrets Manager: its API key and the
 * secret its webhook notices are signed with. The stack creates them with a generated
 * placeholder (a JSON object the functions refuse, naming the command that sets the real
 * value); the operator sets the provider's values (docs/deploy.md#real-rails-increase).
 * Retained: deleting the stack must not lose a key the provider issued. Encrypted with the
 * account's `aws/secretsmanager` key, so `secretsmanager:GetSecretValue` alone reads them;
 * each function is granted exactly the secrets its row reads (`grantRead`), and each
 * secret's resource policy denies reading it to every other principal (`confineReads`).
 */
export class BankSecrets extends Construct {
  readonly apiKey: Secret;
  readonly webhookSecret: Secret;
  private readonly breakGlassRoleArn: string | undefined;
  /** The roles granted each secret (`grantRead`), in the order granted. */
  private readonly readers = new Map<BankSecretName, IRole[]>();
  private confined = false;

  constructor(scope: Construct, id: string, props: BankSecretsProps) {
    super(scope, id);
    this.breakGlassRoleArn = props.breakGlassRoleArn;
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

  /**
   * Lets a function's own role read exactly the secrets named: `secretsmanager:GetSecretValue`
   * on those, nothing else, and the role among those each secret's resource policy spares.
   */
  grantRead(names: readonly BankSecretName[], role: IRole): void {
    if (this.confined) {
      throw new Error(
        `${this.node.path}: ${role.node.path} is granted the bank's secrets after their resource policies were written; bind every function before confineReads()`,
      );
    }
    const unique = [...new Set(names)];
    if (unique.length === 0) return;
    for (const name of unique) this.readers.set(name, [...(this.readers.get(name) ?? []), role]);
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: unique.map((name) => this.secret(name).secretArn),
      }),
    );
  }

  /**
   * Gives each secret a resource policy that denies reading its value to every principal
   * whose ARN (`aws:PrincipalArn`: for a Lambda function's session, its execution role's)
   * is none of its readers' roles nor the break-glass role: a grant of
   * `secretsmanager:GetSecretValue` on `*` elsewhere in the account cannot read the
   * provider's keys. Nothing else is denied, so the operator's `put-secret-value` and
   * `describe-secret` still work. Called once every function is bound (`VerifyServiceStack`).
   * Retained like the secrets, so a secret left behind stays readable by the break-glass
   * role alone.
   */
  confineReads(): void {
    if (this.confined) throw new Error(`${this.node.path}: confineReads() is called once`);
    this.confined = true;
    for (const name of Object.keys(BANK_SECRET_ARN_ENV) as BankSecretName[]) {
      const spared = [
        ...(this.readers.get(name) ?? []).map((role) => role.roleArn),
        ...(this.breakGlassRoleArn ? [this.breakGlassRoleArn] : []),
      ];
      const secret = this.secret(name);
      const { policyDependable: policy } = secret.addToResourcePolicy(
        new PolicyStatement({
          sid: 'OnlyItsReadersReadIt',
          effect: Effect.DENY,
          principals: [new AnyPrincipal()],
          actions: ['secretsmanager:GetSecretValue'],
          resources: ['*'],
          // No reader at all: nobody reads it.
          ...(spared.length > 0 && { conditions: { ArnNotEquals: { 'aws:PrincipalArn': spared } } }),
        }),
      );
      // Kept with the secret it guards: a secret left behind (the stack deleted, or switched
      // to the sandbox) still holds the provider's key, while its readers' roles are deleted
      // or lose their grant, so only the break-glass role may still read it.
      if (!(policy instanceof ResourcePolicy)) throw new Error(`${secret.node.path}: no resource policy was created`);
      policy.applyRemovalPolicy(RemovalPolicy.RETAIN);
    }
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
