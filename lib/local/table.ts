import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  ResourceInUseException,
  type TableDescription,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_SCHEMA } from '#shared/db/schema';

/**
 * The local twin of the CDK data table, built from the same TABLE_SCHEMA. TABLE_SCHEMA
 * names no attribute types; every key is a string (the CDK table must declare the same).
 */
export function tableDefinition(tableName: string): CreateTableCommandInput {
  const indexes = Object.values(TABLE_SCHEMA.indexes);
  const keyNames = [
    TABLE_SCHEMA.partitionKey,
    TABLE_SCHEMA.sortKey,
    ...indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...new Set(keyNames)].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.nonKeyAttributes] },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

/**
 * Creates the table (with TTL on) unless it exists, which it does on a second start with
 * a persistent DATA_DIR. Returns the description, whose LatestStreamArn the stream poller
 * reads.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<TableDescription> {
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await enableTimeToLive(client, tableName);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (!Table) throw new Error(`table ${tableName} was not found after creating it`);
  return Table;
}

async function enableTimeToLive(client: DynamoDBClient, tableName: string): Promise<void> {
  const current = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = current.TimeToLiveDescription?.TimeToLiveStatus;
  // Enabling twice is a ValidationException, so only a table that never had it gets it.
  if (status === 'ENABLED' || status === 'ENABLING') return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { Enabled: true, AttributeName: TABLE_SCHEMA.ttlAttribute },
    }),
  );
}
