import { Stack, Token } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import type { KycMode } from '#domain/person';
import type { RequestLimit } from '#lib/context/api-limits';
import { type KeyKind, keyPattern } from '#shared/db/key-kinds';
import { ENTITY, keys } from '#shared/db/keys';
import { keyConfinement } from './data-table';
import { itemResource } from './item-resource';
import type { StorageKey } from './storage-key';

/** One OAuth client id and the tenant (partner name) its tokens act for. */
export interface TenantAlias {
  /** The token's `client_id`: a Cognito app client's id (a token is fine) or a literal id. */
  readonly clientId: string;
  /** The tenant, i.e. the partner's name (an operator's: its own name). */
  readonly tenant: string;
  /**
   * One of the service's operators (context `operators`): the record is marked
   * `operator: true`, which alone lets a client review screening hits.
   * @default false
   */
  readonly operator?: boolean;
}

/** One tenant's settings, fixed at onboarding (the partner's entry in the context). */
export interface TenantSettings {
  /** The tenant, i.e. the partner's name. */
  readonly tenant: string;
  /**
   * Who identifies the tenant's persons (`kyc_mode`).
   * @default - none: the deployment's default applies
   */
  readonly kycMode?: KycMode;
  /**
   * The tenant's own request rate and burst (`rate_per_second`, `burst`).
   * @default - none: the deployment's default applies
   */
  readonly rateLimit?: RequestLimit;
}

export interface TenantRecordsProps {
  /** The service's single table (`DataTable.table`). */
  readonly table: ITable;
  /** The key the table is encrypted with (`DataTable.key`): DynamoDB needs it to write. */
  readonly tableKey: StorageKey;
  /** Every client id → tenant mapping to keep in the table. Each client id at most once. */
  readonly aliases: readonly TenantAlias[];
  /**
   * The settings records to keep in the table, one per tenant at most.
   * @default - none
   */
  readonly settings?: readonly TenantSettings[];
  /**
   * How long the log group of the custom-resource provider function keeps entries.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
}

/** CloudFormation type of each alias resource. */
export const TENANT_ALIAS_RESOURCE_TYPE = 'Custom::TenantAlias';

/** CloudFormation type of each tenant settings resource. */
export const TENANT_SETTINGS_RESOURCE_TYPE = 'Custom::TenantSettings';

/**
 * The kinds of record the provider may write: aliases (`CLIENT#…`) and settings
 * (`TENANT#…`), no other; every other role of the stack is denied them (`DataTable.writeGuard`). Both whenever the provider exists, even if the stack has records
 * of one kind only: CloudFormation updates the role's policy before it deletes the records
 * a deploy removed, so a prefix dropped with its last record would make that delete fail
 * and leave the record behind.
 */
export const TENANT_RECORD_KEY_KINDS: readonly KeyKind[] = ['tenantAlias', 'tenantSettings'];

/**
 * Keeps the tenant records the stack owns (see `functions/shared/db/tenants/repository.ts`) in the
 * table in step with it:
 * - alias records, `CLIENT#<client id>` / `ALIAS` → tenant (an operator's also
 *   `operator: true`): one `Custom::TenantAlias` resource per client id. If a client id changes (a partner's app client is replaced)
 *   the record's physical id changes with it, so CloudFormation deletes the old record
 *   after putting the new one;
 * - settings records, `TENANT#<tenant>` / `SETTINGS` with `kyc_mode` and/or
 *   `rate_per_second` + `burst`: one `Custom::TenantSettings` resource per tenant that
 *   names a KYC mode or a rate limit. Deleting it (the partner's `kycMode` and `rateLimit`
 *   left the context) hands the tenant back to the deployment defaults.
 * Each resource puts its item when created or changed and deletes it when removed.
 *
 * The resources are `AwsCustomResource`s, which share the stack's singleton provider
 * function: that is why both kinds live in one construct. This construct gives that
 * function its own role (no AWS managed policy; it may only write to its own log group,
 * put/delete `CLIENT#…` and `TENANT#…` items of the table and use the table's key for
 * that: `kms:Decrypt` via DynamoDB), a log group with
 * retention, and no SDK download at run time. As the provider is a singleton, create this
 * construct before any other `AwsCustomResource` of the stack (it refuses otherwise);
 * those would then run with this role too. With no alias and no setting, nothing is
 * created.
 */
export class TenantRecords extends Construct {
  /** The alias resources, by construct id. */
  readonly resources: ReadonlyMap<string, AwsCustomResource>;
  /** The settings resources, by tenant. */
  readonly settingsResources: ReadonlyMap<string, AwsCustomResource>;
  /** Execution role of the provider function (when there is any record). */
  readonly role?: Role;
  /** Log group of the provider function (when there is any record). */
  readonly logGroup?: LogGroup;
  /** The stack's singleton `AwsCustomResource` provider function (when there is any record). */
  readonly provider?: LambdaFunction;

  constructor(scope: Construct, id: string, props: TenantRecordsProps) {
    super(scope, id);
    const resources = new Map<string, AwsCustomResource>();
    const settingsResources = new Map<string, AwsCustomResource>();
    this.resources = resources;
    this.settingsResources = settingsResources;
    const settings = props.settings ?? [];
    if (props.aliases.length === 0 && settings.length === 0) return;

    const { table } = props;
    const logGroup = new LogGroup(this, 'ProviderLogGroup', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });
    const role = new Role(this, 'ProviderRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the custom-resource provider that writes tenant aliases and settings (${this.node.path})`,
    });
    this.logGroup = logGroup;
    this.role = role;
    logGroup.grantWrite(role);
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: keyConfinement(TENANT_RECORD_KEY_KINDS.map(keyPattern)),
      }),
    );
    role.addToPrincipalPolicy(props.tableKey.statement('table'));

    for (const { clientId, tenant, operator } of props.aliases) {
      // A Cognito client id is a token: name its resource by the tenant, which owns exactly
      // one app client. A literal id names its own resource, so moving it to another
      // partner updates the record in place rather than deleting it after the new put.
      const resourceId = Token.isUnresolved(clientId)
        ? `AppClient-${tenant}`
        : `Client-${encodeURIComponent(clientId)}`;
      if (resources.has(resourceId)) {
        throw new Error(
          Token.isUnresolved(clientId)
            ? `tenant "${tenant}" has two app clients`
            : `client id "${clientId}" is mapped twice`,
        );
      }
      const key = keys.tenantAlias(clientId);
      resources.set(
        resourceId,
        itemResource(this, resourceId, {
          resourceType: TENANT_ALIAS_RESOURCE_TYPE,
          table,
          role,
          logGroup,
          key,
          // The same item `TenantRepository.putAlias` writes.
          attributes: { entity: ENTITY.tenantAlias, tenant, version: 1, ...(operator && { operator: true }) },
        }),
      );
    }

    for (const { tenant, kycMode, rateLimit } of settings) {
      if (settingsResources.has(tenant)) throw new Error(`tenant "${tenant}" has two settings records`);
      // The same item `TenantRepository.putSettings` writes.
      const key = keys.tenantSettings(tenant);
      settingsResources.set(
        tenant,
        itemResource(this, `Settings-${encodeURIComponent(tenant)}`, {
          resourceType: TENANT_SETTINGS_RESOURCE_TYPE,
          table,
          role,
          logGroup,
          key,
          attributes: {
            entity: ENTITY.tenantSettings,
            tenant,
            version: 1,
            ...(kycMode && { kyc_mode: kycMode }),
            ...(rateLimit && { rate_per_second: rateLimit.ratePerSecond, burst: rateLimit.burst }),
          },
        }),
      );
    }

    const providerId = `AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`;
    this.provider = Stack.of(this).node.tryFindChild(providerId) as LambdaFunction | undefined;
    if (this.provider?.role !== this.role) {
      throw new Error(
        'TenantRecords must be created before any other AwsCustomResource of the stack: their singleton provider function already exists with another role',
      );
    }
  }
}
