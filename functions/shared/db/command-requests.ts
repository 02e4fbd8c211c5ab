import { type IndexName, TABLE_SCHEMA } from './schema';

// What a document-client command asks of the table, as IAM sees it: each action with the
// partition key it names (`dynamodb:LeadingKeys`), or the index and the index partition a
// Query names. Tenant-scoped credentials choose by it which credentials send a command
// (./tenant-access/); the tests' grant and tenant checks hold each command to its row by it
// (test/support/table-access-recorder.ts).

/** One IAM action a command needs, on one item's partition key or on an index. */
export interface TableRequest {
  readonly action: string;
  /** The item's partition key, where the command names one (confined grants test it). */
  readonly pk?: string;
  /** The index queried (its name in TABLE_SCHEMA), for a Query of an index. */
  readonly index?: string;
  /** The index partition a Query of an index names in its key condition (the tenant check reads it). */
  readonly partition?: string;
  /** The index partitions a Put or an Update files the item under (`gsi1pk`, …): the tenant check reads them. */
  readonly filedUnder?: readonly string[];
}

const INDEX_BY_PHYSICAL_NAME = new Map<string, IndexName>(
  Object.entries(TABLE_SCHEMA.indexes).map(([name, index]) => [index.name, name as IndexName]),
);

// biome-ignore lint/suspicious/noExplicitAny: a command's input, read field by field as each operation names them
type Input = Record<string, any>;
/** A document-client command, as far as its requests show: its class and its input. */
export type DocumentCommand = { constructor: { name: string }; input: Input };
const pkOf = (record: Input | undefined): string | undefined =>
  record?.pk === undefined ? undefined : String(record.pk);

/**
 * The partition-key value a Query names in its key condition (`pk = :v`, the name possibly
 * behind an `#alias`, either side of the `=`, beside a sort-key condition): for the table,
 * what `dynamodb:LeadingKeys` holds for it; for an index, its partition. Undefined when no
 * clause names that key, which a confined grant then refuses.
 */
function queriedPartition(input: Input, partitionKey: string = TABLE_SCHEMA.partitionKey): string | undefined {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const attribute = (operand: string) => (operand.startsWith('#') ? names[operand] : operand);
  for (const clause of String(input.KeyConditionExpression ?? '').split(/\s+and\s+/i)) {
    const match = /^\(?\s*([#:]?[\w]+)\s*=\s*([#:]?[\w]+)\s*\)?$/.exec(clause.trim());
    if (!match) continue;
    const [left, right] = [match[1] as string, match[2] as string];
    const [name, value] = left.startsWith(':') ? [right, left] : [left, right];
    if (attribute(name) === partitionKey && value.startsWith(':') && values[value] !== undefined)
      return String(values[value]);
  }
  return undefined;
}

const withPk = (action: string, pk: string | undefined): TableRequest =>
  pk === undefined ? { action } : { action, pk };

const INDEX_PARTITION_KEYS = new Set<string>(Object.values(TABLE_SCHEMA.indexes).map((index) => index.partitionKey));

/** A write's request, with the index partitions it files the item under, where it names any. */
function writing(action: string, pk: string | undefined, filedUnder: string[]): TableRequest {
  return { ...withPk(action, pk), ...(filedUnder.length > 0 && { filedUnder }) };
}

/** The index partition keys a Put's item holds. */
const filedByPut = (item: Input | undefined): string[] =>
  [...INDEX_PARTITION_KEYS].flatMap((name) => (typeof item?.[name] === 'string' ? [item[name] as string] : []));

/** The index partition keys an Update's SET clauses assign (`#gsi1pk = :v`, the name possibly behind an alias). */
function filedByUpdate(input: Input): string[] {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const filed: string[] = [];
  for (const [, operand, value] of String(input.UpdateExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const name = operand?.startsWith('#') ? names[operand] : operand;
    const assigned = values[value as string];
    if (name && INDEX_PARTITION_KEYS.has(name) && typeof assigned === 'string') filed.push(assigned);
  }
  return filed;
}

/**
 * The DynamoDB operation a document-client command sends (`GetItem`, `TransactWriteItems`,
 * …): its client command's operation schema names it. Not the class's name, which a
 * minified bundle renames.
 */
export function operationOf(command: DocumentCommand): string {
  // A document command's client command is protected in its types, and there at run time
  // (test/unit/shared/db/command-requests.test.ts pins it for every command the service sends).
  const schema = (command as { clientCommand?: { schema?: unknown } }).clientCommand?.schema;
  const name = Array.isArray(schema) ? schema[2] : (schema as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : command.constructor.name;
}

/** The IAM actions a document-client command needs, as IAM names them (a transaction: each item's). */
export function requestsOf(command: DocumentCommand): TableRequest[] {
  const input = command.input;
  switch (operationOf(command)) {
    case 'GetItem':
      return [{ action: 'GetItem', pk: pkOf(input.Key) }];
    case 'PutItem':
      return [writing('PutItem', pkOf(input.Item), filedByPut(input.Item))];
    case 'UpdateItem':
      return [writing('UpdateItem', pkOf(input.Key), filedByUpdate(input))];
    case 'DeleteItem':
      return [{ action: 'DeleteItem', pk: pkOf(input.Key) }];
    case 'Query': {
      if (input.IndexName === undefined) return [withPk('Query', queriedPartition(input))];
      const index = INDEX_BY_PHYSICAL_NAME.get(input.IndexName);
      const partition = index && queriedPartition(input, TABLE_SCHEMA.indexes[index].partitionKey);
      return [{ action: 'Query', index: index ?? input.IndexName, ...(partition !== undefined && { partition }) }];
    }
    case 'BatchGetItem':
      return Object.values(input.RequestItems as Record<string, { Keys: Input[] }>).flatMap(({ Keys }) =>
        Keys.map((key) => ({ action: 'BatchGetItem', pk: pkOf(key) })),
      );
    case 'TransactWriteItems':
      return (input.TransactItems as Input[]).map((item) => {
        if (item.Put) return writing('PutItem', pkOf(item.Put.Item), filedByPut(item.Put.Item));
        if (item.Update) return writing('UpdateItem', pkOf(item.Update.Key), filedByUpdate(item.Update));
        if (item.Delete) return { action: 'DeleteItem', pk: pkOf(item.Delete.Key) };
        return { action: 'ConditionCheckItem', pk: pkOf(item.ConditionCheck?.Key) };
      });
    case 'TransactGetItems':
      return (input.TransactItems as Input[]).map((item) => ({ action: 'GetItem', pk: pkOf(item.Get?.Key) }));
    case 'BatchWriteItem':
      return [{ action: 'BatchWriteItem' }];
    case 'Scan':
      return [{ action: 'Scan' }];
    default:
      return [{ action: operationOf(command) }];
  }
}
