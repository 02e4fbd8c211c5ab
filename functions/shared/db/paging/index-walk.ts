import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import { type ItemKey, keyOf } from '../items';
import { TABLE_SCHEMA } from '../schema';
import { BATCH_GET_LIMIT, batchGetInOrder } from './batch-get';
import { type IndexQuery, queryInput } from './index-query';

/**
 * Index items one Query evaluates at most (a filter doubles a partition's reads, the
 * page number adds to them): about what DynamoDB's 1 MB page holds of these slim items.
 */
const INDEX_PAGE_LIMIT = 4_000;

/** One partition's place in a merged walk. */
interface Cursor {
  partition: string;
  buffer: Record<string, unknown>[];
  startKey?: Record<string, unknown>;
  /** Index items the next Query of this partition asks for. */
  limit: number;
  /** Its keys the walk has given so far: its share of the list, to size its next read. */
  given: number;
  done: boolean;
}

/**
 * An entry of a list's index: the item's key and the entry's sort key (`<created_at>#<id>`),
 * which says where in the list it stands without reading the item
 * (functions/shared/db/list-positions/repository.ts writes a page's end from it).
 */
export interface IndexEntry {
  key: ItemKey;
  sortKey: string;
  /** The index partition it was read from. */
  partition: string;
}

/** The keys of one page of the index's matches, in index order, merged across its partitions. */
export async function pageKeys(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
  page: PageWindow,
): Promise<ItemKey[]> {
  return (await pageEntries(db, tableName, query, page)).map((entry) => entry.key);
}

/**
 * The entries of one page of the index's matches; `passing`, when given, sees every entry
 * the walk passes over before the page, in list order.
 */
export async function pageEntries(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
  page: PageWindow,
  passing?: (entry: IndexEntry) => void,
): Promise<IndexEntry[]> {
  const found: IndexEntry[] = [];
  if (page.take === 0) return found;
  let passed = 0;
  for await (const entry of walkKeys(db, tableName, query, page.skip + page.take)) {
    if (passed < page.skip) {
      passed++;
      passing?.(entry);
    } else found.push(entry);
    if (found.length === page.take) break;
  }
  return found;
}

/**
 * The index's matches in list order (each key with its sort key), merged across the
 * query's partitions, read lazily.
 * Every partition is read at once, side by side, for about twice its even share of
 * `expected` keys (`firstLimit`; shares are uneven, statuses differ in size). The merge
 * cannot pass a partition that ran dry while more of it may come first, so then every
 * partition that would run dry before the page is full is read again together, each for
 * about twice its share of the keys still missing, its share being what it gave so far.
 * A page thus takes one round of reads, rarely two, however many partitions it merges.
 * `near`, entries of the list next to where the walk starts, gives each partition's share
 * measured instead of assumed even: each first read then asks for 1.5× its share.
 */
export async function* walkKeys(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
  expected: number,
  near: readonly IndexEntry[] = [],
): AsyncGenerator<IndexEntry> {
  const filtered = Object.values(query.anyOf ?? {}).some((values) => values?.length);
  const sortKey = TABLE_SCHEMA.indexes[query.index].sortKey;
  const newestFirst = query.newestFirst !== false;
  const partitions = [...new Set(query.partitions)];
  const cursors: Cursor[] = partitions.map((partition) => ({
    partition,
    buffer: [],
    limit:
      near.length > 0
        ? measuredLimit(expected, near.filter((entry) => entry.partition === partition).length / near.length, filtered)
        : firstLimit(expected, partitions.length, filtered),
    given: 0,
    done: false,
  }));
  const read = async (cursor: Cursor) => {
    const out = await db.send(
      new QueryCommand({
        TableName: tableName,
        ...queryInput(query, cursor.partition),
        Limit: cursor.limit,
        ExclusiveStartKey: cursor.startKey,
      }),
    );
    cursor.buffer.push(...(out.Items ?? []));
    cursor.startKey = out.LastEvaluatedKey;
    cursor.done = !out.LastEvaluatedKey;
  };
  const seen = new Set<string>();
  let given = 0;
  await Promise.all(cursors.map(read));
  for (;;) {
    if (cursors.some((c) => c.buffer.length === 0 && !c.done)) {
      const missing = Math.max(1, expected - given);
      const open = cursors.filter((c) => !c.done);
      // What each open partition is likely to give before the page is full, plus one.
      const need = (c: Cursor) => Math.ceil(missing * (given > 0 ? c.given / given : 1 / open.length) + 1);
      const short = open.filter((c) => c.buffer.length < need(c));
      for (const c of short) {
        // A filter drops items the Query evaluates: read twice as many each time.
        c.limit = bounded(filtered ? 2 * c.limit : Math.max(c.limit, 2 * need(c)));
      }
      await Promise.all(short.map(read));
      continue;
    }
    const next = headOf(cursors, sortKey, newestFirst);
    if (!next) return;
    const item = next.buffer.shift() as Record<string, unknown>;
    // Key conditions hold the exclusive bounds inclusively (BETWEEN): the bound's own entry drops here.
    if (item[sortKey] === query.belowKey || item[sortKey] === query.aboveKey) continue;
    const key = keyOf(item);
    // An item moving between partitions (a status change) may briefly be in both.
    if (seen.has(key.pk)) continue;
    seen.add(key.pk);
    next.given++;
    given++;
    yield { key, sortKey: String(item[sortKey]), partition: next.partition };
  }
}

/**
 * Index entries one read unit holds (4 KB at about 300 bytes each): a Query is billed at
 * least that, and DynamoDB answers as fast, so a first read never asks for fewer.
 */
const ENTRIES_PER_READ_UNIT = 12;

/**
 * A partition's first read: about twice its even share of `expected` keys, at least a
 * read unit's worth, at most `expected` (unless a filter drops some of what is read).
 */
function firstLimit(expected: number, partitions: number, filtered: boolean): number {
  const share = Math.max(ENTRIES_PER_READ_UNIT, 2 * Math.ceil(expected / partitions) + 2);
  return bounded(filtered ? share : Math.min(expected, share));
}

/** A partition's first read when its share of the walk is measured: 1.5× it, plus two, at least a read unit's worth. */
function measuredLimit(expected: number, share: number, filtered: boolean): number {
  const limit = Math.max(ENTRIES_PER_READ_UNIT, Math.ceil(1.5 * share * expected) + 2);
  return bounded(filtered ? limit : Math.min(expected, limit));
}

const bounded = (limit: number) => Math.min(INDEX_PAGE_LIMIT, Math.max(1, limit));

/** The cursor whose next item comes first in the list's order. */
function headOf(cursors: Cursor[], sortKey: string, newestFirst: boolean): Cursor | undefined {
  let best: Cursor | undefined;
  for (const cursor of cursors) {
    const item = cursor.buffer[0];
    if (!item) continue;
    if (!best) {
      best = cursor;
      continue;
    }
    const a = String(item[sortKey]);
    const b = String(best.buffer[0]?.[sortKey]);
    if (newestFirst ? a > b : a < b) best = cursor;
  }
  return best;
}

/**
 * One page of an index's matches, read by key. `matches`, when given, is a filter the
 * index cannot evaluate (attributes it does not project): keys are then read in batches
 * and the items tested, until the page is full or the partitions end.
 */
export async function readPage(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
  page: PageWindow,
  matches?: (item: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>[]> {
  if (page.take === 0) return [];
  if (!matches) return batchGetInOrder(db, tableName, await pageKeys(db, tableName, query, page));
  const found: Record<string, unknown>[] = [];
  let passed = 0;
  let batch: ItemKey[] = [];
  const take = async () => {
    for (const item of await batchGetInOrder(db, tableName, batch)) {
      if (!matches(item)) continue;
      if (passed < page.skip) passed++;
      else if (found.length < page.take) found.push(item);
    }
    batch = [];
  };
  for await (const { key } of walkKeys(db, tableName, query, page.skip + page.take)) {
    batch.push(key);
    if (batch.length === BATCH_GET_LIMIT) await take();
    if (found.length === page.take) return found;
  }
  if (batch.length > 0) await take();
  return found;
}
