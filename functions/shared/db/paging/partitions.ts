import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type IndexName, TABLE_SCHEMA } from '../schema';

/**
 * Every item of one index partition (or a sort-key range of it), all pages: for the
 * pipeline's sweeps over partitions that stay small (the persons of one name, the
 * statement codes due today), never for a tenant's list.
 */
export async function queryPartition(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: { index: IndexName; partition: string; before?: string },
): Promise<Record<string, unknown>[]> {
  const index = TABLE_SCHEMA.indexes[query.index];
  const names: Record<string, string> = { '#pk': index.partitionKey };
  const values: Record<string, unknown> = { ':pk': query.partition };
  let keyCondition = '#pk = :pk';
  if (query.before !== undefined) {
    names['#sk'] = index.sortKey;
    values[':before'] = query.before;
    keyCondition += ' AND #sk < :before';
  }
  return everyPage(db, {
    TableName: tableName,
    IndexName: index.name,
    KeyConditionExpression: keyCondition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/**
 * Every item of one table partition, all pages, strongly consistent: for partitions that
 * stay small by design (an event and its delivery attempts, a tenant's ≤ 10 webhook
 * configurations).
 */
export async function tablePartition(
  db: DynamoDBDocumentClient,
  tableName: string,
  pk: string,
  /** Only the items whose sort key starts so (a person's hits beside the person). */
  skPrefix?: string,
): Promise<Record<string, unknown>[]> {
  return everyPage(db, {
    TableName: tableName,
    KeyConditionExpression: skPrefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ...(skPrefix !== undefined && { ':prefix': skPrefix }) },
    ConsistentRead: true,
  });
}

/** Every item a Query matches, following `LastEvaluatedKey` page after page. */
async function everyPage(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
}
