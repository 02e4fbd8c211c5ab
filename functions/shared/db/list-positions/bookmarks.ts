import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PageWindow } from '#domain/pagination';
import type { IndexQuery } from '../paging/index-query';
import { queryInput } from '../paging/index-query';
import { type IndexEntry, pageEntries, walkKeys } from '../paging/index-walk';
import type { Position } from './item';

/** The table a list's bookmarks are counted and walked on. */
export interface Table {
  db: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * A bookmark counts the entries newer than a watermark this long before it was made, and
 * the same again when used: inserts in between arrive at the top (sort keys start with
 * `created_at`), and the margin covers entries made earlier that the index shows late.
 */
export const WATERMARK_MARGIN_MS = 60_000;
/** The most entries above a watermark a bookmark counts; a busier list pages from the top. */
const MAX_RECENT = 1_000;

/** The entries of a page by number, and what a bookmark after it keeps of the list's top. */
export interface WalkedPage {
  entries: IndexEntry[];
  watermark?: string;
  /** Entries at or above `watermark` as of the page; undefined when unknown (no bookmark then). */
  recent?: number;
}

/**
 * Page `skip / take` by a walk from the top, and, when `now` is given (the list takes
 * bookmarks), how many of the list's entries are at or above a watermark a margin before
 * `now`. Newest first, the walk passes over every entry above the page before the page's
 * own, so when the page ends below the watermark it has seen every entry at or above it:
 * counted from the walk itself, the number describes exactly the list the page was cut
 * from (no COUNT, and no race between a count and the walk to check for).
 */
export async function fromTop(
  { db, tableName }: Table,
  query: IndexQuery,
  page: PageWindow,
  now: Date | undefined,
): Promise<WalkedPage> {
  if (!now) return { entries: await pageEntries(db, tableName, query, page) };
  const watermark = new Date(now.getTime() - WATERMARK_MARGIN_MS).toISOString();
  let recent = 0;
  // A sort key `<created_at>#<id>` is at or above the watermark exactly when its created_at is.
  const count = (entry: IndexEntry) => {
    if (entry.sortKey >= watermark) recent++;
  };
  const entries = await pageEntries(db, tableName, query, page, count);
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
 * keeps no bookmark (see `ListPositions.serve`).
 */
export async function fromBookmark(
  table: Table,
  query: IndexQuery,
  bookmark: Position,
  take: number,
): Promise<WalkedPage | undefined> {
  const { watermark, recent } = bookmark;
  if (watermark === undefined || recent === undefined) return undefined;
  // A bookmark among the counted entries could see inserts below it: only deeper ones are used.
  if (bookmark.last >= watermark) return undefined;
  const [recentNow, below] = await Promise.all([
    countRecent(table, query, watermark),
    pageEntries(table.db, table.tableName, { ...query, belowKey: bookmark.last }, { skip: 0, take }),
  ]);
  if (recentNow === undefined) return undefined;
  const shift = recentNow - recent;
  if (shift < 0) return undefined;
  const above: IndexEntry[] = [];
  if (shift > 0) {
    // The bookmark's own entry first: it is the `count`-th, so the page starts `shift - 1` above it.
    // Sized by how the entries just below spread over the partitions: the list's mix there.
    const upwards = { ...query, from: bookmark.last, newestFirst: false };
    for await (const entry of walkKeys(table.db, table.tableName, upwards, shift, below)) {
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
async function countRecent(
  { db, tableName }: Table,
  query: IndexQuery,
  watermark: string,
): Promise<number | undefined> {
  const from = query.from !== undefined && query.from > watermark ? query.from : watermark;
  if (query.before !== undefined && query.before <= from) return 0;
  const counts = await Promise.all(
    [...new Set(query.partitions)].map(async (partition) => {
      let count = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await db.send(
          new QueryCommand({
            TableName: tableName,
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
