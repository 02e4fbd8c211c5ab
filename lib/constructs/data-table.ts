import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type CfnTable,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ENV } from '#shared/config';
import { TABLE_SCHEMA } from '#shared/db/schema';
import type { TableAccess } from '../service';

export interface DataTableProps {
  /**
   * Server-side encryption. AWS-managed (`aws/dynamodb`) by default: the sensitive
   * values (SSNs, tax ids, webhook secrets) are already encrypted by the application
   * under the `CipherKey`, so a customer-managed table key would add a KMS grant to every
   * function role and a KMS call to every cold read without protecting anything more.
   * The AWS-managed key still logs its use to CloudTrail, unlike the AWS-owned default.
   * @default TableEncryption.AWS_MANAGED
   */
  readonly encryption?: TableEncryption;
  /**
   * Whether CloudFormation refuses to delete the table. Keep it on outside throwaway
   * sandboxes: the table is the only copy of every record.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/**
 * The service's single DynamoDB table, built from `TABLE_SCHEMA` so that the local
 * runtime's table and this one cannot drift apart: on-demand, stream with old and new
 * images (the stream router reads it), point-in-time recovery, TTL, and every index with
 * exactly the attributes its access pattern needs. Retained on stack deletion.
 */
export class DataTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      encryption: props.encryption ?? TableEncryption.AWS_MANAGED,
      deletionProtection: props.deletionProtection ?? true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(TABLE_SCHEMA.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.INCLUDE,
        nonKeyAttributes: [...index.nonKeyAttributes],
      });
    }
  }

  /**
   * The cdk-nag finding id of the `<table>/index/*` resource that DynamoDB's grant
   * methods add. Acknowledging it is exact: the wildcard only spans this table's own
   * indexes, which are all listed in TABLE_SCHEMA and all serve the service's queries.
   */
  get indexWildcardFindingId(): string {
    const logicalId = Stack.of(this).getLogicalId(this.table.node.defaultChild as CfnTable);
    return `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/index/*]`;
  }
}

/**
 * Powertools' `bindTable` idea: one call gives a function the table's name and the least
 * grant its route declares. `read` gets no write action at all (no PutItem, UpdateItem,
 * DeleteItem, BatchWriteItem); `readwrite` gets the data-plane read and write actions.
 */
export function bindTable(fn: LambdaFunction, dataTable: DataTable, access: TableAccess): void {
  if (access === 'read') dataTable.table.grantReadData(fn);
  else dataTable.table.grantReadWriteData(fn);
  fn.addEnvironment(ENV.tableName, dataTable.table.tableName);
  // The grant lands in the role's default policy, so that is where the finding is.
  Validations.of(fn.role ?? fn).acknowledge({
    id: dataTable.indexWildcardFindingId,
    reason: "Queries run on the table's global secondary indexes; `index/*` covers only this table's own indexes.",
  });
}
