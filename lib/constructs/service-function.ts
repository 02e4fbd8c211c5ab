import { Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { CipherAccess, TableAccess } from '#lib/service/index';
import { splitTenantAccess } from '#lib/service/tenant-access';
import { BANK_RAILS_BUNDLE_CONSTANT } from '#shared/bank/providers';
import { ENV } from '#shared/config';
import { IDENTITY_VENDOR_BUNDLE_CONSTANT } from '#shared/identity-vendor/vendors';
import { QUEUES, type QueueId } from '#shared/queue/message-queue';
import { APP_METRICS_ENV, APP_METRICS_NAMESPACE, appServiceName } from './app-metrics';
import { functionBundling } from './bundling';
import { type CipherKey, purposeCondition } from './cipher-key';
import type { DataTable } from './data-table';
import type { EmailSenderSettings } from './email-sender';
import { bindBank, bindIdentityVendor } from './provider-binding';
import type { WorkQueue } from './queue';
import type { BoundDataKey, ServiceFunctionProps } from './service-function-props';
import { TenantRole } from './tenant-role';

/**
 * A `NodejsFunction` with the house defaults, the base of every function of the service
 * (an API route's, a consumer's): Node.js 24 on ARM64, X-Ray tracing,
 * the Powertools service name (the stack's name) and metrics namespace of
 * `app-metrics.ts`, an explicit log group with retention, a minified ESM bundle with
 * source maps (positions only) that includes the AWS SDK (so the code runs against the SDK
 * version it was tested with and cold starts skip resolving the runtime's copy), and a
 * role of its own that can only write to its own log group. Table, key, queue and email
 * access are added by the `bind*`/`sendsTo` methods, each granting exactly what its
 * argument names; the data keys are given at construction (`dataKeys`), as they also
 * decide whether the bundle carries the KMS client.
 *
 * The role and the log group are created beside the function (`<id>Role`,
 * `<id>LogGroup`), since the function's constructor needs them before it exists.
 */
export class ServiceFunction extends NodejsFunction {
  /** The function's own execution role (no AWS managed policy). */
  declare readonly role: Role;
  /** Every table access bound to the own role (`bindTable`), as granted: what the stack's write guard reads. */
  private readonly boundTableAccess: TableAccess[] = [];
  /** Every table access bound to the tenant role. */
  private readonly boundTenantAccess: TableAccess[] = [];
  /** The role it assumes per tenant (`bindTable`, `TenantRole`), if it acts for one tenant at a time. */
  tenantRole?: Role;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}LogGroup`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });
    // Our own role instead of the default one: the default attaches the AWS managed
    // AWSLambdaBasicExecutionRole, which may write to every log group in the account.
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${scope.node.path}/${id}`,
    });
    logGroup.grantWrite(role);
    const dataKeys = props.dataKeys ?? [];
    const held = new Set(dataKeys.map((dataKey) => dataKey.spec.purpose));

    super(scope, id, {
      entry: props.entry,
      projectRoot: props.projectRoot,
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      tracing: Tracing.ACTIVE,
      role,
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        [ENV.logLevel]: props.logLevel ?? 'info',
        // The metric contract of lib/constructs/app-metrics.ts: namespace and `service` dimension.
        [APP_METRICS_ENV.serviceName]: appServiceName(scope),
        [APP_METRICS_ENV.namespace]: APP_METRICS_NAMESPACE,
      },
      bundling: functionBundling(props.projectRoot, {
        files: props.bundling?.files ?? [],
        heldDataKeys: held,
        bundleConstants: {
          [BANK_RAILS_BUNDLE_CONSTANT]: props.bank?.binding.secrets !== undefined,
          [IDENTITY_VENDOR_BUNDLE_CONSTANT]: props.identityVendor?.binding.secrets !== undefined,
          ...props.bundleConstants,
        },
      }),
    });

    for (const dataKey of dataKeys) this.bindDataKey(dataKey);
    if (props.bank) bindBank(this, props.bank);
    if (props.identityVendor) bindIdentityVendor(this, props.identityVendor);

    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions; no other statement of this role uses "*" (asserted in test/infra).',
    });
  }

  /**
   * Powertools' `bindTable` idea: the table's name in `TABLE_NAME`, and exactly the
   * accesses given: each one's actions on the table, and `Query` on each of its indexes,
   * confined to its `leadingKeys` when it names them (see `DataTable.statementsFor`). No
   * access at all (no action) binds nothing.
   *
   * A function that acts for one tenant per request or message (`actsForOneTenant`: its
   * row declares no `crossTenant`) gets its accesses to tenants' records on a tenant role
   * of its own instead (`TenantRole`, its ARN in `TENANT_ROLE_ARN`), each confined to the
   * keys of the tenant its session is tagged with; its own role keeps only the accesses to
   * records of no tenant (`splitTenantAccess`).
   */
  bindTable(
    dataTable: DataTable,
    access: TableAccess | readonly TableAccess[],
    options: { readonly actsForOneTenant?: boolean } = {},
  ): this {
    const split = splitTenantAccess(([] as readonly TableAccess[]).concat(access), options.actsForOneTenant ?? false);
    let statements: PolicyStatement[];
    try {
      statements = dataTable.statementsFor(split.own, { confineIndexes: options.actsForOneTenant ?? false });
      if (split.tenant.length > 0) {
        this.tenantRole = new TenantRole(this, 'Tenant', {
          assumedBy: this.role,
          access: split.tenant,
          dataTable,
        }).role;
        this.boundTenantAccess.push(...split.tenant);
        this.addEnvironment(ENV.tenantRoleArn, this.tenantRole.roleArn);
      }
    } catch (error) {
      throw new Error(`${this.node.path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (statements.length === 0 && split.tenant.length === 0) return this;
    this.boundTableAccess.push(...split.own);
    for (const statement of statements) this.addToRolePolicy(statement);
    this.addEnvironment(ENV.tableName, dataTable.table.tableName);
    return this;
  }

  /** The table accesses bound to the function's own role (`bindTable`). */
  get tableAccess(): readonly TableAccess[] {
    return this.boundTableAccess;
  }

  /** The table accesses bound to its tenant role (`bindTable`); none without one. */
  get tenantAccess(): readonly TableAccess[] {
    return this.boundTenantAccess;
  }

  /**
   * Exactly the key operations given, each only for the purposes named
   * (`kms:EncryptionContext:purpose`, see `CipherPurpose`), and the key ARN in
   * `CIPHER_KEY_ARN`: a role that decrypts webhook secrets cannot decrypt an SSN.
   * `encrypt` grants only `kms:Encrypt`, not `grantEncrypt()`'s `kms:ReEncrypt*` and
   * `kms:GenerateDataKey*`: the cipher never uses those, and a writer must not be able to
   * re-encrypt or derive data keys. Without any purpose the function gets neither a
   * permission nor the ARN, so it cannot even name the key.
   */
  bindCipherKey(cipherKey: CipherKey, access: CipherAccess | undefined): this {
    const grants = [
      ['kms:Encrypt', access?.encrypt ?? []],
      ['kms:Decrypt', access?.decrypt ?? []],
    ] as const;
    for (const [action, purposes] of grants) {
      if (purposes.length === 0) continue;
      this.addToRolePolicy(
        new PolicyStatement({
          actions: [action],
          resources: [cipherKey.key.keyArn],
          conditions: purposeCondition([...new Set(purposes)].sort()),
        }),
      );
      this.addEnvironment(ENV.cipherKeyArn, cipherKey.key.keyArn);
    }
    return this;
  }

  /**
   * A data key (the digest key of docs/data-model.md#digests, the field key of
   * docs/data-model.md#field-encryption): its ciphertext in its variable
   * (`DIGEST_KEY_CIPHERTEXT`, `FIELD_KEY_CIPHERTEXT`), the cipher key's ARN in
   * `CIPHER_KEY_ARN`, and `kms:Decrypt` on the cipher key under that key's purpose only,
   * which the function uses once per warm container. Without it, nothing: the function
   * holds neither the ciphertext nor the grant.
   */
  private bindDataKey(dataKey: BoundDataKey): void {
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [dataKey.cipherKey.key.keyArn],
        conditions: purposeCondition([dataKey.spec.purpose]),
      }),
    );
    this.addEnvironment(dataKey.spec.ciphertextEnv, dataKey.ciphertext);
    this.addEnvironment(ENV.cipherKeyArn, dataKey.cipherKey.key.keyArn);
  }

  /**
   * Lets the function send to one of the service's queues: `sqs:SendMessage` (with
   * `GetQueueAttributes` and `GetQueueUrl`) on that queue only, the storage key's
   * `queue-send` use, and the queue's URL in its variable (`QUEUES[id].envVar`).
   */
  sendsTo(queueId: QueueId, workQueue: WorkQueue): this {
    workQueue.grantSendMessages(this);
    this.addEnvironment(QUEUES[queueId].envVar, workQueue.queue.queueUrl);
    return this;
  }

  /**
   * Lets the function send email as the sender: `ses:SendEmail` on that one identity and
   * `EMAIL_SENDER`. Without a sender, nothing: the function has no SES permission at all.
   */
  bindEmailSender(sender: EmailSenderSettings | undefined): this {
    if (sender === undefined) return this;
    this.addToRolePolicy(new PolicyStatement({ actions: ['ses:SendEmail'], resources: [sender.identityArn] }));
    this.addEnvironment(ENV.emailSender, sender.address);
    return this;
  }
}
