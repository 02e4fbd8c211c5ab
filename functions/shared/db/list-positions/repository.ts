import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import { ValidationError } from '#shared/errors';
import type { ItemKey } from '../items';
import { tenantDataPrefix } from '../key-kinds';
import { batchGetInOrder } from '../paging/batch-get';
import type { IndexQuery } from '../paging/index-query';
import { type IndexEntry, pageEntries, readPage } from '../paging/index-walk';
import { TABLE_SCHEMA } from '../schema';
import { fromBookmark, fromTop, type Table } from './bookmarks';
import {
  BOOKMARK_TTL_SECONDS,
  CURSOR_TTL_SECONDS,
  type ListKind,
  type Position,
  positionItem,
  toPosition,
} from './item';
import { positionKeys } from './keys';

/** The index walk of a list and what a position keeps of it. */
export interface PageSource {
  query: IndexQuery;
  /**
   * The part of the filter the index cannot evaluate, as the repository rebuilds its test
   * from it (`matchesOf`); never a secret (an account number is in a partition key, digested).
   */
  afterRead?: Record<string, unknown>;
  /**
   * Page numbers may start from a bookmark: every list but one whose filter is tested
   * after the read (or holds a secret) — docs/decisions.md#deep-pages-list-positions.
   */
  bookmarkable: boolean;
}

/** A page by number, or the page after a cursor. */
export type PageRequest = { page: PageWindow } | { cursor: string; take: number };

export interface ListPage<T> {
  items: T[];
  /** The cursor of the next page, when this one is full. */
  next?: string;
}

type ServedPage = ListPage<Record<string, unknown>>;

export interface ListPages {
  kind: ListKind;
  /** The walk of a page by number; a cursor carries its own. */
  source: () => PageSource;
  /**
   * Whether this request may follow a cursor of this walk: a cursor is the tenant's, and
   * the tenant's clients may hold different scopes (the event log's kinds).
   * @default every walk of the list
   */
  admits?: (query: IndexQuery) => boolean;
  /**
   * Whether a stored walk may read this index partition for the tenant: a position is
   * found under the tenant's key, but what it walks is stored data, so it is checked.
   * @default the tenant's own data (`T#<tenant>#…`)
   */
  owns?: (partition: string) => boolean;
  /** The test of the filter the index cannot evaluate, from `afterRead`. */
  matchesOf?: (
    afterRead: Record<string, unknown> | undefined,
  ) => ((item: Record<string, unknown>) => boolean) | undefined;
}

const CURSOR = /^[A-Za-z0-9_-]{22}$/;

export const invalidCursor = () =>
  new ValidationError(
    'invalid_cursor',
    'cursor is unknown or expired (cursors are kept 24 hours): page again from index 0',
  );

export class ListPositions {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private get table(): Table {
    return { db: this.db, tableName: this.tableName };
  }

  /**
   * One page of the list, from a cursor, a bookmark or the top, and the cursor after it.
   * A page costs the round trips it did before list positions (walk → BatchGet) and, from
   * a bookmark, the bookmark's Get: no stage of its own for counting (a walk from the top
   * counts as it goes; a bookmarked page counts beside its walk) nor for writing positions
   * (the page's end is its walk's last index entry, known before its items are read).
   */
  async serve(tenant: string, list: ListPages, request: PageRequest, now: Date): Promise<ServedPage> {
    if ('cursor' in request) return this.afterCursor(tenant, list, request, now);
    const { page } = request;
    if (page.take === 0) return { items: [] };
    const source = list.source();
    const count = page.skip + page.take;
    const matches = list.matchesOf?.(source.afterRead);
    if (matches) {
      // Items tested after the read: the page ends where the tests say, known only after it.
      const items = await readPage(this.db, this.tableName, source.query, page, matches);
      const last = items.length === page.take ? lastKey(source.query, items) : undefined;
      return { items, next: await this.nextCursor(tenant, list.kind, source, count, last, now) };
    }
    const bookmarks = source.bookmarkable && source.query.newestFirst !== false;
    const bookmark =
      bookmarks && page.skip > 0
        ? await this.read(tenant, list, positionKeys.bookmark(tenant, list.kind, source.query, page.skip), now)
        : undefined;
    const walked =
      (bookmark && (await fromBookmark(this.table, source.query, bookmark, page.take))) ??
      (await fromTop(this.table, source.query, page, bookmarks ? now : undefined));
    const last = pageEnd(walked.entries, page.take);
    const [items, next] = await Promise.all([
      batchGetInOrder(
        this.db,
        this.tableName,
        walked.entries.map((entry) => entry.key),
      ),
      this.nextCursor(tenant, list.kind, source, count, last, now),
      // A bookmark among the counted entries could see inserts below it: none is kept there.
      last !== undefined && walked.watermark !== undefined && walked.recent !== undefined && last < walked.watermark
        ? this.write(positionKeys.bookmark(tenant, list.kind, source.query, count), BOOKMARK_TTL_SECONDS, now, {
            kind: list.kind,
            query: source.query,
            last,
            count,
            watermark: walked.watermark,
            recent: walked.recent,
          })
        : undefined,
    ]);
    return { items, next };
  }

  private async afterCursor(
    tenant: string,
    list: ListPages,
    request: { cursor: string; take: number },
    now: Date,
  ): Promise<ServedPage> {
    if (!CURSOR.test(request.cursor)) throw invalidCursor();
    const position = await this.read(tenant, list, positionKeys.cursor(tenant, request.cursor), now);
    if (!position || position.kind !== list.kind || list.admits?.(position.query) === false) throw invalidCursor();
    if (request.take === 0) return { items: [] };
    const source = { query: position.query, afterRead: position.afterRead, bookmarkable: false };
    const query = { ...position.query, belowKey: position.last };
    const window = { skip: 0, take: request.take };
    const count = position.count + request.take;
    const matches = list.matchesOf?.(position.afterRead);
    if (matches) {
      const items = await readPage(this.db, this.tableName, query, window, matches);
      const last = items.length === request.take ? lastKey(source.query, items) : undefined;
      return { items, next: await this.nextCursor(tenant, list.kind, source, count, last, now) };
    }
    const entries = await pageEntries(this.db, this.tableName, query, window);
    const [items, next] = await Promise.all([
      batchGetInOrder(
        this.db,
        this.tableName,
        entries.map((entry) => entry.key),
      ),
      this.nextCursor(tenant, list.kind, source, count, pageEnd(entries, request.take), now),
    ]);
    return { items, next };
  }

  /** The cursor after a page that ended at `last` (none after a short page: the list ended). */
  private async nextCursor(
    tenant: string,
    kind: ListKind,
    source: PageSource,
    count: number,
    last: string | undefined,
    now: Date,
  ): Promise<string | undefined> {
    if (last === undefined) return undefined;
    const cursor = randomBytes(16).toString('base64url');
    await this.write(positionKeys.cursor(tenant, cursor), CURSOR_TTL_SECONDS, now, {
      writeOnce: true,
      kind,
      query: source.query,
      afterRead: source.afterRead,
      last,
      count,
    });
    return cursor;
  }

  /** A cursor is written once (128 random bits never meet one); a bookmark replaces the last of its key. */
  private async write(
    key: ItemKey,
    ttlSeconds: number,
    now: Date,
    { writeOnce, ...position }: Position & { writeOnce?: boolean },
  ): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: positionItem(key, ttlSeconds, now, position),
        ConditionExpression: writeOnce ? 'attribute_not_exists(pk)' : undefined,
      }),
    );
  }

  /**
   * The position, unless gone, past its TTL (DynamoDB deletes expired items late), or
   * walking a partition that is not the tenant's (`ListPages.owns`): a position is found
   * under the tenant's key, but what it walks is stored data, so it is checked rather than trusted.
   */
  private async read(tenant: string, list: ListPages, key: ItemKey, now: Date): Promise<Position | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key }));
    const position = toPosition(out.Item, now);
    const own = tenantDataPrefix(tenant);
    const owns = list.owns ?? ((partition: string) => partition.startsWith(own));
    return position?.query.partitions.every(owns) ? position : undefined;
  }
}

/**
 * Where a page walked from the index ends: its last entry's sort key, when the walk found a
 * whole page. The items are read beside the positions written from it, so an item gone
 * between the index and the read (an event past its retention) leaves the page short by
 * one yet still carrying a next cursor and bookmark: the list does continue below that
 * entry, and a position names a place in the list, not an item.
 */
function pageEnd(entries: IndexEntry[], take: number): string | undefined {
  return entries.length === take ? entries[take - 1]?.sortKey : undefined;
}

/** The sort key of the last item served, in the index the list walks. */
function lastKey(query: IndexQuery, items: Record<string, unknown>[]): string {
  const sortKey = TABLE_SCHEMA.indexes[query.index].sortKey;
  return String(items[items.length - 1]?.[sortKey]);
}
