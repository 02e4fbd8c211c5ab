import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AnyPrincipal, Effect, type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { ResourcePolicy, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { PLACEHOLDER_MARK } from '#shared/secret-placeholder';

/** One secret of a provider: its construct id and what it holds. */
export interface ProviderSecretSpec {
  /** The construct id, from which the secret's logical id derives (never change one that is deployed). */
  readonly id: string;
  /** What it holds, for whom (its description, after the stack's name). */
  readonly description: string;
}

export interface ProviderSecretsProps<Name extends string> {
  /** The provider's secrets, by the name rows give them. */
  readonly secrets: Readonly<Record<Name, ProviderSecretSpec>>;
  /** Where the operator reads how to set them (`docs/deploy.md#…`). */
  readonly docs: string;
  /**
   * A role that may read every secret beside the functions granted them (`confineReads`):
   * the operators' way in, for an emergency.
   * @default - none: only the readers' own roles
   */
  readonly breakGlassRoleArn?: string;
}

/**
 * A third party's secrets in Secrets Manager (the bank's, the identity vendor's). The stack
 * creates them with a generated placeholder (a JSON object the functions refuse, naming the
 * command that sets the real value); the operator sets the provider's values. Retained:
 * deleting the stack must not lose a key the provider issued. Encrypted with the account's
 * `aws/secretsmanager` key, so `secretsmanager:GetSecretValue` alone reads them; each
 * function is granted exactly the secrets its row reads (`grantRead`), and each secret's
 * resource policy denies reading it to every other principal (`confineReads`).
 */
export class ProviderSecrets<Name extends string> extends Construct {
  private readonly secrets = new Map<Name, Secret>();
  private readonly breakGlassRoleArn: string | undefined;
  /** The roles granted each secret (`grantRead`), in the order granted. */
  private readonly readers = new Map<Name, IRole[]>();
  private confined = false;

  constructor(scope: Construct, id: string, props: ProviderSecretsProps<Name>) {
    super(scope, id);
    this.breakGlassRoleArn = props.breakGlassRoleArn;
    const stage = Stack.of(this).stackName;
    for (const [name, spec] of Object.entries(props.secrets) as [Name, ProviderSecretSpec][]) {
      this.secrets.set(name, this.created(spec.id, `${stage}: ${spec.description}`, props.docs));
    }
  }

  /** A secret by the name a row gives it. */
  secret(name: Name): Secret {
    const secret = this.secrets.get(name);
    if (!secret) throw new Error(`${this.node.path}: no secret named ${name}`);
    return secret;
  }

  /**
   * Lets a function's own role read exactly the secrets named: `secretsmanager:GetSecretValue`
   * on those, nothing else, and the role among those each secret's resource policy spares.
   */
  grantRead(names: readonly Name[], role: IRole): void {
    if (this.confined) {
      throw new Error(
        `${this.node.path}: ${role.node.path} is granted the provider's secrets after their resource policies were written; bind every function before confineReads()`,
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
    for (const [name, secret] of this.secrets) {
      const spared = [
        ...(this.readers.get(name) ?? []).map((role) => role.roleArn),
        ...(this.breakGlassRoleArn ? [this.breakGlassRoleArn] : []),
      ];
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

  private created(id: string, description: string, docs: string): Secret {
    const secret = new Secret(this, id, {
      description: `${description}. Set it with aws secretsmanager put-secret-value (${docs}).`,
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ [PLACEHOLDER_MARK]: 'set the provider’s value: docs/deploy.md' }),
        generateStringKey: 'placeholder',
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: `The provider issues this value (an API key or secret from its dashboard, the webhook secret it signs with); Secrets Manager cannot rotate it on the provider’s side. It is rotated by the operator: a new value from the provider, then put-secret-value (${docs}).`,
    });
    return secret;
  }
}
