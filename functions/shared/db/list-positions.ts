import { createHash, randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import { ValidationError } from '#shared/errors';
import { ENTITY } from './entities';
import type { ItemKey } from './items';
import { KEY_PREFIX } from './keys';
import { batchGetInOrder } from './paging/batch-get';
import { type IndexQuery, queryInput } from './paging/index-query';
import { type IndexEntry, pageEntries, readPage, walkKeys } from './paging/index-walk';
import { TABLE_SCHEMA } from './schema';

/**
 * List positions (docs/data-model.md#list-positions): where a served page ended, stored so
 * the next page starts there instead of walking from the top. One item kind serves two
 * uses. A **cursor** is an opaque random 128-bit id naming a write-once position, kept
 * 24 h; following it continues after the last entry served (keyset paging). A
 * **bookmark** is a position under a key the next page number finds again: (list, its
 * filter, entries before the next page), kept 15 min; `index × size` equal to its count
 * starts there. Both are found under the token's tenant only (`PAGE#<tenant>#…`), so a
 * position is never another tenant's.
 *
 * A position is the sort key of the last entry served (`<created_at>#<id>`, unique and
 * the same in every partition of the merged walk): below it in every partition is
 * exactly the rest of the list, however the entries spread over statuses and shards.
 */
export type ListKind = 'verify_accounts' | 'persons' | 'events';

export const CURSOR_TTL_SECONDS = 24 * 60 * 60;
export const BOOKMARK_TTL_SECONDS = 15 * 60;
/**
 * A bookmark counts the entries newer than a watermark this long before it was made, and
 * the same again when used: inserts in between arrive at the top (sort keys start with
 * `created_at`), and the margin covers entries made earlier that the index shows late.
 */
export const WATERMARK_MARGIN_MS = 60_000;
/** The most entries above a watermark a bookmark counts; a busier list pages from the top. */
const MAX_RECENT = 1_000;

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
  /** The test of the filter the index cannot evaluate, from `afterRead`. */
  matchesOf?: (
    afterRead: Record<string, unknown> | undefined,
  ) => ((item: Record<string, unknown>) => boolean) | undefined;
}

/** The entries of a page by number, and what a bookmark after it keeps of the list's top. */
interface WalkedPage {
  entries: IndexEntry[];
  watermark?: string;
  /** Entries at or above `watermark` as of the page; undefined when unknown (no bookmark then). */
  recent?: number;
}

interface Position {
  kind: ListKind;
  query: IndexQuery;
  afterRead?: Record<string, unknown>;
  /** Sort key of the last entry served. */
  last: string;
  /** Entries of the list before the next page. */
  count: number;
  /** Bookmarks: entries at or above `watermark` when the page was served. */
  watermark?: string;
  recent?: number;
}

export const positionKeys = {
  cursor: (tenant: string, cursor: string) => ({
    pk: `${KEY_PREFIX.listPosition}${tenant}#C#${cursor}`,
    sk: 'POSITION',
  }),
  /** Lists with a bookmark hold no secret in their filter; the hash only bounds the key's length. */
  bookmark: (tenant: string, kind: ListKind, query: IndexQuery, count: number) => {
    const digest = createHash('sha256')
      .update(JSON.stringify([kind, canonical(query)]))
      .digest('base64url');
    return { pk: `${KEY_PREFIX.listPosition}${tenant}#B#${digest}#${count}`, sk: 'POSITION' };
  },
};

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
        ? await this.read(positionKeys.bookmark(tenant, list.kind, source.query, page.skip), now)
        : undefined;
    const walked =
      (bookmark && (await this.fromBookmark(source.query, bookmark, page.take))) ??
      (await this.fromTop(source.query, page, bookmarks ? now : undefined));
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
    const position = await this.read(positionKeys.cursor(tenant, request.cursor), now);
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

  /**
   * Page `skip / take` by a walk from the top, and, when `now` is given (the list takes
   * bookmarks), how many of the list's entries are at or above a watermark a margin before
   * `now`. Newest first, the walk passes over every entry above the page before the page's
   * own, so when the page ends below the watermark it has seen every entry at or above it:
   * counted from the walk itself, the number describes exactly the list the page was cut
   * from (no COUNT, and no race between a count and the walk to check for).
   */
  private async fromTop(query: IndexQuery, page: PageWindow, now: Date | undefined): Promise<WalkedPage> {
    if (!now) return { entries: await pageEntries(this.db, this.tableName, query, page) };
    const watermark = new Date(now.getTime() - WATERMARK_MARGIN_MS).toISOString();
    let recent = 0;
    // A sort key `<created_at>#<id>` is at or above the watermark exactly when its created_at is.
    const count = (entry: IndexEntry) => {
      if (entry.sortKey >= watermark) recent++;
    };
    const entries = await pageEntries(this.db, this.tableName, query, page, count);
    entries.forEach(count);
    return { entries, watermark, recent: recent > MAX_RECENT ? undefined : recent };
  }

  /**
   * The page a bookmark starts, or undefined when it cannot be sure it is the page a walk
   * from the top gives now. `d` entries came in above the watermark since the bookmark: the
   * bookmark's entry, the `count`-th, is now the `count + d`-th, so today's page
   * `count / size` is that entry and the `d - 1` just above it (read upwards), then the
   * rest below it.
   *
   * One COUNT, side by side with the walk below the bookmark: entries below the bookmark
   * lie below the watermark, where no insert lands, so that walk needs no `d` to start and
   * reads `take` entries of which `take - d` are used. The next bookmark keeps this one's
   * watermark and the count just taken, not a second count after the page: it holds that
   * the entry it names will be the `count + size + (recent at its use − the count just
   * taken)`-th, because the entries between it and the watermark are the ones this page
   * was placed among, fixed since. That holds even when the count was off (an entry caught moving
   * between status partitions counted twice or not at all): the page is then off by the
   * same amount, and so is the bookmark's count, and the two cancel at the next use. An
   * insert that races the count can make this page differ from a walk from the top only
   * where it sits among the counted entries, above the watermark, and a page ending there
   * keeps no bookmark (see `serve`).
   */
  private async fromBookmark(query: IndexQuery, bookmark: Position, take: number): Promise<WalkedPage | undefined> {
    const { watermark, recent } = bookmark;
    if (watermark === undefined || recent === undefined) return undefined;
    // A bookmark among the counted entries could see inserts below it: only deeper ones are used.
    if (bookmark.last >= watermark) return undefined;
    const [recentNow, below] = await Promise.all([
      this.recent(query, watermark),
      pageEntries(this.db, this.tableName, { ...query, belowKey: bookmark.last }, { skip: 0, take }),
    ]);
    if (recentNow === undefined) return undefined;
    const shift = recentNow - recent;
    if (shift < 0) return undefined;
    const above: IndexEntry[] = [];
    if (shift > 0) {
      // The bookmark's own entry first: it is the `count`-th, so the page starts `shift - 1` above it.
      // Sized by how the entries just below spread over the partitions: the list's mix there.
      const upwards = { ...query, from: bookmark.last, newestFirst: false };
      for await (const entry of walkKeys(this.db, this.tableName, upwards, shift, below)) {
        above.push(entry);
        if (above.length === shift) break;
      }
      if (above.length < shift) return undefined;
    }
    const entries = [...above.slice(Math.max(0, shift - take)).reverse(), ...below.slice(0, Math.max(0, take - shift))];
    return { entries, watermark, recent: recentNow };
  }

  /**
   * Entries of the list at or above `watermark` (a COUNT of each partition's newest
   * entries, filters applied), or undefined past MAX_RECENT. An entry changing status
   * while counted may show in two partitions or none: the page placed by the count is then
   * off by one, as a walk from the top can be, and the bookmark made with it carries the
   * same error, which cancels at its use (`fromBookmark`).
   */
  private async recent(query: IndexQuery, watermark: string): Promise<number | undefined> {
    const from = query.from !== undefined && query.from > watermark ? query.from : watermark;
    if (query.before !== undefined && query.before <= from) return 0;
    const counts = await Promise.all(
      [...new Set(query.partitions)].map(async (partition) => {
        let count = 0;
        let startKey: Record<string, unknown> | undefined;
        do {
          const out = await this.db.send(
            new QueryCommand({
              TableName: this.tableName,
              ...queryInput({ ...query, from }, partition),
              Select: 'COUNT',
              ExclusiveStartKey: startKey,
            }),
          );
          count += out.Count ?? 0;
          startKey = out.LastEvaluatedKey;
        } while (startKey && count <= MAX_RECENT);
        return count;
      }),
    );
    const total = counts.reduce((sum, count) => sum + count, 0);
    return total > MAX_RECENT ? undefined : total;
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
        Item: {
          ...key,
          entity: ENTITY.listPosition,
          version: 1,
          list: position.kind,
          query: JSON.stringify(canonical(position.query)),
          after_read: position.afterRead && JSON.stringify(position.afterRead),
          last_key: position.last,
          count: position.count,
          watermark: position.watermark,
          recent: position.recent,
          [TABLE_SCHEMA.ttlAttribute]: Math.ceil(now.getTime() / 1000) + ttlSeconds,
        },
        ConditionExpression: writeOnce ? 'attribute_not_exists(pk)' : undefined,
      }),
    );
  }

  /** The position, unless gone or past its TTL (DynamoDB deletes expired items late). */
  private async read(key: ItemKey, now: Date): Promise<Position | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key }));
    const item = out.Item;
    if (!item || item.entity !== ENTITY.listPosition) return undefined;
    if (Number(item[TABLE_SCHEMA.ttlAttribute]) * 1000 <= now.getTime()) return undefined;
    return {
      kind: item.list as ListKind,
      query: JSON.parse(String(item.query)) as IndexQuery,
      afterRead: typeof item.after_read === 'string' ? JSON.parse(item.after_read) : undefined,
      last: String(item.last_key),
      count: Number(item.count),
      watermark: item.watermark as string | undefined,
      recent: item.recent === undefined ? undefined : Number(item.recent),
    };
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

/** The query as a position keeps it: bounds of a walk in progress dropped, filter values sorted. */
function canonical(query: IndexQuery): IndexQuery {
  const anyOf = Object.fromEntries(
    Object.entries(query.anyOf ?? {})
      .filter(([, values]) => values?.length)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([attribute, values]) => [attribute, [...new Set(values)].sort()]),
  );
  return {
    index: query.index,
    partitions: [...new Set(query.partitions)].sort(),
    ...(query.from !== undefined && { from: query.from }),
    ...(query.before !== undefined && { before: query.before }),
    ...(Object.keys(anyOf).length > 0 && { anyOf }),
    ...(query.newestFirst === false && { newestFirst: false }),
  };
}
