import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, type AwsSdkCall, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';

// One table item kept by the stack (an alias, a tenant's settings): the custom resource
// `TenantRecords` makes per record, on the stack's singleton provider function.

export interface ItemResourceProps {
  readonly resourceType: string;
  readonly table: ITable;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly key: { readonly pk: string; readonly sk: string };
  /** Everything the item holds besides its key. */
  readonly attributes: Record<string, string | number | boolean>;
}

/**
 * One custom resource that puts `{ ...key, ...attributes }` when created or updated and
 * deletes `key` when removed. The key is the physical id, so a changed key replaces the
 * record (CloudFormation deletes the old one after the put).
 */
export function itemResource(scope: Construct, id: string, props: ItemResourceProps): AwsCustomResource {
  const { table, key, role } = props;
  const put: AwsSdkCall = {
    service: 'DynamoDB',
    action: 'PutItem',
    parameters: { TableName: table.tableName, Item: attributeValues({ ...key, ...props.attributes }) },
    physicalResourceId: PhysicalResourceId.of(key.pk),
  };
  const resource = new AwsCustomResource(scope, id, {
    resourceType: props.resourceType,
    onCreate: put,
    onUpdate: put,
    onDelete: {
      service: 'DynamoDB',
      action: 'DeleteItem',
      parameters: { TableName: table.tableName, Key: attributeValues(key) },
    },
    role,
    logGroup: props.logGroup,
    // The runtime's SDK has PutItem and DeleteItem; downloading one at deploy time
    // would only add a network dependency and a minute.
    installLatestAwsSdk: false,
  });
  // The permissions sit in the role's default policy: wait for it.
  resource.node.addDependency(role);
  return resource;
}

/** DynamoDB's low-level attribute values, which the provider's PutItem/DeleteItem take. */
function attributeValues(
  item: Record<string, string | number | boolean>,
): Record<string, { S: string } | { N: string } | { BOOL: boolean }> {
  return Object.fromEntries(
    Object.entries(item).map(([name, value]) => [
      name,
      typeof value === 'number' ? { N: String(value) } : typeof value === 'boolean' ? { BOOL: value } : { S: value },
    ]),
  );
}
