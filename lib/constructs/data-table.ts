import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { type IndexName, TABLE_ACTIONS, TABLE_SCHEMA } from '#shared/db/schema';
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

  /** The ARN of one of the table's indexes, `<table ARN>/index/<name>`. */
  indexArn(index: IndexName): string {
    const schema = TABLE_SCHEMA.indexes[index];
    if (schema === undefined) throw new Error(`unknown index "${index}" (the indexes are ${INDEX_NAMES.join(', ')})`);
    return `${this.table.tableArn}/index/${schema.name}`;
  }

  /**
   * The policy statements of exactly one table access: `dynamodb:<action>` for each of its
   * actions on the table, and `dynamodb:Query` on each of its indexes. Never Scan, never
   * an `index/*` wildcard. Throws on an action outside TABLE_ACTIONS and on an index
   * listed without `Query` among the actions, so a row that cannot work fails at synth.
   */
  statementsFor(access: TableAccess): PolicyStatement[] {
    const actions = [...new Set(access.actions)].sort();
    const unknown = actions.filter((action) => !(TABLE_ACTIONS as readonly string[]).includes(action));
    if (unknown.length > 0) {
      throw new Error(`table actions ${unknown.join(', ')} are not among ${TABLE_ACTIONS.join(', ')}`);
    }
    // `Query` among the actions is a query of the table itself; `indexes` are the indexes queried.
    const indexes = [...new Set(access.indexes ?? [])].sort();
    const statements: PolicyStatement[] = [];
    if (actions.length > 0) {
      statements.push(
        new PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: [this.table.tableArn],
        }),
      );
    }
    if (indexes.length > 0) {
      statements.push(
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: indexes.map((index) => this.indexArn(index)),
        }),
      );
    }
    return statements;
  }
}

const INDEX_NAMES = Object.keys(TABLE_SCHEMA.indexes);
