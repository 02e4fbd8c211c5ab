import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { TableAccess } from '#lib/service/index';
import { type KeyKind, keyPattern } from '#shared/db/key-kinds';
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
   *
   * `confineIndexes`: each index Query is confined to the partitions of its access's kinds
   * too (for an index Query, `dynamodb:LeadingKeys` is the index's partition key): the own
   * role of a function that acts for one tenant walks only partitions of no tenant
   * (`SCREEN#<list>#LISTINGS`), its tenant role the tenant's (lib/constructs/tenant-role.ts).
   */
  statementsFor(
    accesses: TableAccess | readonly TableAccess[],
    options: { readonly confineIndexes?: boolean } = {},
  ): PolicyStatement[] {
    const statements = ([] as readonly TableAccess[])
      .concat(accesses)
      .flatMap((access) => this.accessStatements(access, options.confineIndexes ?? false));
    if (statements.length > 0) statements.push(this.key.statement('table'));
    return statements;
  }

  private accessStatements(access: TableAccess, confineIndexes: boolean): PolicyStatement[] {
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
      // Unless `confineIndexes`, not confined by key: for a Query of an index,
      // dynamodb:LeadingKeys is the index's partition key, whose values are not the table's
      // kinds (`PSCREEN#<shard>` walks persons of every tenant for the re-screens, by design).
      // Index queries only read, and only the index's projection.
      const kinds = [...new Set(access.leadingKeys ?? [])];
      statements.push(
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: indexes.map((index) => this.indexArn(index)),
          ...(confineIndexes && kinds.length > 0 && { conditions: keyConfinement(kinds.map(keyPattern)) }),
        }),
      );
    }
    return statements;
  }

  /**
   * The explicit Deny of every write (`TABLE_WRITE_ACTIONS`) on the items of each guarded
   * kind (`GUARDED_KEY_KINDS`) the role does not write itself (`writes`), matched with
   * `ForAnyValue:StringLike` on `dynamodb:LeadingKeys`: it wins over any Allow, so a grant
   * added later by mistake, even one on the whole table, still cannot move a partner's
   * client to another tenant, change a tenant's settings or delete screening entries.
   * Undefined when the role writes every guarded kind.
   */
  writeGuard(writes: readonly KeyKind[]): PolicyStatement | undefined {
    const denied = GUARDED_KEY_KINDS.filter((kind) => !writes.includes(kind));
    if (denied.length === 0) return undefined;
    return new PolicyStatement({
      effect: Effect.DENY,
      actions: TABLE_WRITE_ACTIONS.map((action) => `dynamodb:${action}`),
      resources: [this.table.tableArn],
      conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': denied.map(keyPattern) } },
    });
  }

  /**
   * Adds `writeGuard` to every IAM role in `scope`'s tree (the functions' and CDK's own
   * alike), each by the kinds `writers` says it writes: a role not in `writers` writes none.
   * Call it once, after every role exists.
   */
  guardWrites(scope: Construct, writers: ReadonlyMap<Role, readonly KeyKind[]>): void {
    for (const role of scope.node.findAll().filter((child): child is Role => child instanceof Role)) {
      const deny = this.writeGuard(writers.get(role) ?? []);
      if (deny) role.addToPrincipalPolicy(deny);
    }
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
 * Every DynamoDB action that writes an item: the single-item writes, BatchWriteItem and
 * PartiQL's writes (each evaluated against `dynamodb:LeadingKeys` like the item it writes).
 */
export const TABLE_WRITE_ACTIONS = [
  'BatchWriteItem',
  'DeleteItem',
  'PartiQLDelete',
  'PartiQLInsert',
  'PartiQLUpdate',
  'PutItem',
  'UpdateItem',
] as const;

/**
 * The kinds of record only their keepers may write, denied to every other role
 * (`writeGuard`): aliases and settings (the tenant-records provider, lib/constructs/tenant-records.ts)
 * decide which tenant a client acts for and whether persons are identified; screening
 * entries (rows that write them; the deployed lists are loaded with an operator's
 * credentials) decide who is sanctioned, for every tenant at once.
 */
export const GUARDED_KEY_KINDS: readonly KeyKind[] = ['tenantAlias', 'tenantSettings', 'screeningEntry'];

/** The kinds of key the accesses write: those of every access with PutItem, UpdateItem or DeleteItem. */
export function writtenKinds(accesses: readonly TableAccess[]): KeyKind[] {
  const writing = accesses.filter((access) =>
    access.actions.some((action) => (TABLE_WRITE_ACTIONS as readonly string[]).includes(action)),
  );
  return [...new Set(writing.flatMap((access) => access.leadingKeys ?? []))];
}

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
