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
import type { TableAccess } from '#lib/service/index';
import { keyPattern } from '#shared/db/keys';
import { type IndexName, TABLE_ACTIONS, TABLE_SCHEMA } from '#shared/db/schema';
import type { StorageKey } from './storage-key';

export interface DataTableProps {
  /**
   * The customer-managed key the table (items, indexes, stream, backups) is encrypted
   * with. Items hold names, addresses and dates of birth in plain attributes (only SSNs,
   * tax ids and secrets are encrypted again by the application), so the table's key is
   * one this account controls, audits per caller and can revoke: every role that reads or
   * writes the table needs its `table` use, granted with the table access itself.
   */
  readonly key: StorageKey;
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
 * images (the stream router reads it), point-in-time recovery, TTL, every index with
 * exactly the attributes its access pattern needs, and encryption under the
 * `StorageKey`. Retained on stack deletion.
 */
export class DataTable extends Construct {
  readonly table: Table;
  /** The key the table and its stream are encrypted with. */
  readonly key: StorageKey;

  constructor(scope: Construct, id: string, props: DataTableProps) {
    super(scope, id);
    this.key = props.key;
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.key.key,
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
   * The policy statements of exactly the table accesses given: for each access,
   * `dynamodb:<action>` for each of its actions on the table, confined to the kinds of key
   * it names (`leadingKeys`, see `keyConfinement`), and `dynamodb:Query` on each of its
   * indexes; then, once, the storage key's `table` use, without which DynamoDB refuses the
   * call. Never Scan, never an `index/*` wildcard. Throws on an action outside
   * TABLE_ACTIONS and on item actions that name no kind of key, so a row that cannot work,
   * or would reach every item of the table, fails at synth.
   */
  statementsFor(accesses: TableAccess | readonly TableAccess[]): PolicyStatement[] {
    const statements = ([] as readonly TableAccess[])
      .concat(accesses)
      .flatMap((access) => this.accessStatements(access));
    if (statements.length > 0) statements.push(this.key.statement('table'));
    return statements;
  }

  private accessStatements(access: TableAccess): PolicyStatement[] {
    const actions = [...new Set(access.actions)].sort();
    const unknown = actions.filter((action) => !(TABLE_ACTIONS as readonly string[]).includes(action));
    if (unknown.length > 0) {
      throw new Error(`table actions ${unknown.join(', ')} are not among ${TABLE_ACTIONS.join(', ')}`);
    }
    // `Query` among the actions is a query of the table itself; `indexes` are the indexes queried.
    const indexes = [...new Set(access.indexes ?? [])].sort();
    const statements: PolicyStatement[] = [];
    if (actions.length > 0) {
      const kinds = [...new Set(access.leadingKeys ?? [])];
      if (kinds.length === 0) {
        throw new Error(
          `table actions ${actions.join(', ')} name no key kinds: add leadingKeys to the row's access in lib/service (the kinds of KEY_PREFIX in functions/shared/db/keys.ts its keys start with, e.g. ['tenantData'])`,
        );
      }
      statements.push(
        new PolicyStatement({
          actions: actions.map((action) => `dynamodb:${action}`),
          resources: [this.table.tableArn],
          conditions: keyConfinement(kinds.map(keyPattern)),
        }),
      );
    }
    if (indexes.length > 0) {
      // Not confined by key: for a Query of an index, dynamodb:LeadingKeys is the index's
      // partition key, whose values are not the table's kinds (`PNAME#<name>` finds persons
      // of every tenant by name, by design). Index queries only read, and only the index's
      // projection.
      statements.push(
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: indexes.map((index) => this.indexArn(index)),
        }),
      );
    }
    return statements;
  }

  /**
   * What a Lambda event source mapping on the table stream reads with its function's
   * role, and nothing more (CDK's `grantStreamRead` would add `kms:DescribeKey`):
   * `DescribeStream`, `GetShardIterator` and `GetRecords` on this table's stream,
   * `ListStreams` (which supports no resource-level permissions, hence `*`, as AWS's
   * `AWSLambdaDynamoDBExecutionRole` has it; it only lists stream ARNs), and the storage
   * key's `stream` use to decrypt the records.
   */
  streamReadStatements(): PolicyStatement[] {
    const streamArn = this.table.tableStreamArn;
    if (streamArn === undefined) throw new Error(`${this.node.path}: the table has no stream`);
    return [
      new PolicyStatement({ actions: ['dynamodb:ListStreams'], resources: ['*'] }),
      new PolicyStatement({
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        resources: [streamArn],
      }),
      this.key.statement('stream'),
    ];
  }
}

const INDEX_NAMES = Object.keys(TABLE_SCHEMA.indexes);

/**
 * The IAM condition that confines DynamoDB item actions to the items whose partition key
 * matches one of the patterns (`StringLike`: `*`, `?`), as AWS documents fine-grained
 * access. `ForAllValues` alone also holds when a request carries no key at all, so `Null`
 * makes the key's presence a condition too: a call without a partition key (a Scan, were
 * one ever granted beside it) is refused rather than let through.
 */
export function keyConfinement(patterns: readonly string[]): Record<string, Record<string, unknown>> {
  if (patterns.length === 0) throw new Error('a key confinement needs at least one partition key pattern');
  return {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...patterns] },
    Null: { 'dynamodb:LeadingKeys': 'false' },
  };
}
