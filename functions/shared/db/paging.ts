import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import { InternalError } from '#shared/errors';
import { type ItemKey, keyOf } from './items';
import { type IndexName, TABLE_SCHEMA } from './schema';

/**
 * Lists as every entity pages them: walk a slim index (keys and filter attributes only)
 * in sort-key order, pass over `skip` matches, keep the page's keys, then read just those
 * items by key. Index sort keys are `<created_at>#<id>`, so time bounds are key
 * conditions and the order is newest first when read backwards.
 */
export interface IndexQuery {
  index: IndexName;
  partition: string;
  /** Inclusive lower bound of the sort key's time (RFC 3339, UTC, ms). */
  from?: string;
  /** Exclusive upper bound of the sort key's time. */
  before?: string;
  /** Attribute → accepted values; applied to the projected attributes while walking. */
  anyOf?: Readonly<Record<string, readonly string[] | undefined>>;
  /** Default true: sort key descending. */
  newestFirst?: boolean;
}

/**
 * Index items one Query evaluates at most. Without a filter a Query asks for exactly the
 * matches still needed (page 0 reads 100 index items, not a 1 MB page of ~4,000); with a
 * filter it asks for about what DynamoDB's 1 MB page holds of these slim items (~250
 * bytes) anyway. DynamoDB Local, which reads the whole partition for a Query without
 * `Limit`, then reads what DynamoDB would (the list benchmark, test/bench/lists.ts).
 */
const INDEX_PAGE_LIMIT = 4_000;

/** BatchGetItem takes at most 100 keys per call. */
const BATCH_GET_LIMIT = 100;
/** Rounds of retrying unprocessed keys before giving up (backoff 50 ms … 1 s). */
const BATCH_GET_ROUNDS = 8;

/** The keys of one page of the index's matches, in index order. */
export async function pageKeys(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
  page: PageWindow,
): Promise<ItemKey[]> {
  const input = queryInput(query);
  const filtered = input.FilterExpression !== undefined;
  const found: ItemKey[] = [];
  let seen = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const needed = page.skip + page.take - seen;
    const Limit = filtered ? INDEX_PAGE_LIMIT : Math.min(needed, INDEX_PAGE_LIMIT);
    const out = await db.send(new QueryCommand({ TableName: tableName, ...input, Limit, ExclusiveStartKey: startKey }));
    for (const item of out.Items ?? []) {
      if (seen++ < page.skip) continue;
      found.push(keyOf(item));
      if (found.length === page.take) return found;
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return found;
}

/**
 * The items of `itemKeys`, in that order (BatchGet answers in any order); keys whose item
 * is gone drop out. Unprocessed keys are retried with backoff a bounded number of times.
 */
export async function batchGetInOrder(
  db: DynamoDBDocumentClient,
  tableName: string,
  itemKeys: readonly ItemKey[],
): Promise<Record<string, unknown>[]> {
  const byKey = new Map<string, Record<string, unknown>>();
  const id = (key: ItemKey) => `${key.pk}|${key.sk}`;
  for (let i = 0; i < itemKeys.length; i += BATCH_GET_LIMIT) {
    let request: Record<string, unknown>[] | undefined = itemKeys.slice(i, i + BATCH_GET_LIMIT).map((k) => ({ ...k }));
    for (let round = 0; request && request.length > 0; round++) {
      if (round === BATCH_GET_ROUNDS) throw new InternalError('table kept throttling the page read');
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** round)));
      const out: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: request, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[tableName] ?? []) byKey.set(id(keyOf(item)), item);
      request = out.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return itemKeys.flatMap((key): Record<string, unknown>[] => {
    const item = byKey.get(id(key));
    return item ? [item] : [];
  });
}

/** One page of an index's matches, read by key. */
export async function readPage(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
  page: PageWindow,
): Promise<Record<string, unknown>[]> {
  if (page.take === 0) return [];
  return batchGetInOrder(db, tableName, await pageKeys(db, tableName, query, page));
}

function queryInput(query: IndexQuery) {
  const index = TABLE_SCHEMA.indexes[query.index];
  const names: Record<string, string> = { '#pk': index.partitionKey };
  const values: Record<string, unknown> = { ':pk': query.partition };
  let keyCondition = '#pk = :pk';
  if (query.from || query.before) names['#sk'] = index.sortKey;
  // Sort keys are `<created_at>#<id>`: `>= from` includes created_at == from, `< before` excludes created_at == before.
  if (query.from && query.before) {
    keyCondition += ' AND #sk BETWEEN :from AND :before';
    Object.assign(values, { ':from': query.from, ':before': query.before });
  } else if (query.from) {
    keyCondition += ' AND #sk >= :from';
    values[':from'] = query.from;
  } else if (query.before) {
    keyCondition += ' AND #sk < :before';
    values[':before'] = query.before;
  }
  const conditions: string[] = [];
  for (const [attribute, wanted] of Object.entries(query.anyOf ?? {})) {
    if (!wanted?.length) continue;
    names[`#${attribute}`] = attribute;
    const placeholders = wanted.map((value, i) => {
      values[`:${attribute}${i}`] = value;
      return `:${attribute}${i}`;
    });
    conditions.push(`#${attribute} IN (${placeholders.join(', ')})`);
  }
  return {
    IndexName: index.name,
    KeyConditionExpression: keyCondition,
    FilterExpression: conditions.length ? conditions.join(' AND ') : undefined,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: query.newestFirst === false,
  };
}

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
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index.name,
        KeyConditionExpression: keyCondition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
}
