import { Stack, Token } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, type AwsSdkCall, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { ENTITY, keys } from '#shared/db/keys';

/** One OAuth client id and the tenant (partner name) its tokens act for. */
export interface TenantAlias {
  /** The token's `client_id`: a Cognito app client's id (a token is fine) or a literal id. */
  readonly clientId: string;
  /** The tenant, i.e. the partner's name. */
  readonly tenant: string;
}

export interface TenantAliasesProps {
  /** The service's single table (`DataTable.table`). */
  readonly table: ITable;
  /** Every client id → tenant mapping to keep in the table. Each client id at most once. */
  readonly aliases: readonly TenantAlias[];
  /**
   * How long the log group of the custom-resource provider function keeps entries.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
}

/** CloudFormation type of each alias resource. */
export const TENANT_ALIAS_RESOURCE_TYPE = 'Custom::TenantAlias';

/** Every alias key starts with this (`CLIENT#`); the provider may write no other key. */
const ALIAS_KEY_PREFIX = keys.tenantAlias('').pk;

/**
 * Keeps the tenant alias records (`CLIENT#<client id>` / `ALIAS` → tenant, see
 * `functions/shared/db/tenants.ts`) in the table in step with the stack: one
 * `Custom::TenantAlias` resource per client id puts the item when created or changed and
 * deletes it when removed. If a client id changes (a partner's app client is replaced)
 * the record's physical id changes with it, so CloudFormation deletes the old record
 * after putting the new one.
 *
 * The resources are `AwsCustomResource`s, which share the stack's singleton provider
 * function. This construct gives that function its own role (no AWS managed policy; it
 * may only write to its own log group and put/delete `CLIENT#…` items of the table), a
 * log group with retention, and no SDK download at run time. As the provider is a
 * singleton, create this construct before any other `AwsCustomResource` of the stack
 * (it refuses otherwise); those would then run with this role too. With no alias,
 * nothing is created.
 */
export class TenantAliases extends Construct {
  /** The alias resources, by construct id. */
  readonly resources: ReadonlyMap<string, AwsCustomResource>;
  /** Execution role of the provider function (when there is any alias). */
  readonly role?: Role;
  /** Log group of the provider function (when there is any alias). */
  readonly logGroup?: LogGroup;
  /** The stack's singleton `AwsCustomResource` provider function (when there is any alias). */
  readonly provider?: LambdaFunction;

  constructor(scope: Construct, id: string, props: TenantAliasesProps) {
    super(scope, id);
    const resources = new Map<string, AwsCustomResource>();
    this.resources = resources;
    if (props.aliases.length === 0) return;

    const { table } = props;
    this.logGroup = new LogGroup(this, 'ProviderLogGroup', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });
    this.role = new Role(this, 'ProviderRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the custom-resource provider that writes tenant aliases (${this.node.path})`,
    });
    this.logGroup.grantWrite(this.role);
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${ALIAS_KEY_PREFIX}*`] } },
      }),
    );

    for (const { clientId, tenant } of props.aliases) {
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
      const put: AwsSdkCall = {
        service: 'DynamoDB',
        action: 'PutItem',
        parameters: {
          TableName: table.tableName,
          Item: attributeValues({ ...key, entity: ENTITY.tenantAlias, tenant, version: 1 }),
        },
        physicalResourceId: PhysicalResourceId.of(key.pk),
      };
      const resource = new AwsCustomResource(this, resourceId, {
        resourceType: TENANT_ALIAS_RESOURCE_TYPE,
        onCreate: put,
        onUpdate: put,
        onDelete: {
          service: 'DynamoDB',
          action: 'DeleteItem',
          parameters: { TableName: table.tableName, Key: attributeValues(key) },
        },
        role: this.role,
        logGroup: this.logGroup,
        // The runtime's SDK has PutItem and DeleteItem; downloading one at deploy time
        // would only add a network dependency and a minute.
        installLatestAwsSdk: false,
      });
      // The permissions sit in the role's default policy: wait for it.
      resource.node.addDependency(this.role);
      resources.set(resourceId, resource);
    }

    const providerId = `AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`;
    this.provider = Stack.of(this).node.tryFindChild(providerId) as LambdaFunction | undefined;
    if (this.provider?.role !== this.role) {
      throw new Error(
        'TenantAliases must be created before any other AwsCustomResource of the stack: their singleton provider function already exists with another role',
      );
    }
  }
}

/** DynamoDB's low-level attribute values, which the provider's PutItem/DeleteItem take. */
function attributeValues(item: Record<string, string | number>): Record<string, { S: string } | { N: string }> {
  return Object.fromEntries(
    Object.entries(item).map(([name, value]) => [
      name,
      typeof value === 'number' ? { N: String(value) } : { S: value },
    ]),
  );
}
