import { ENTITY } from '../entities';
import type { ItemKey } from '../items';
import type { IndexQuery } from '../paging/index-query';
import { TABLE_SCHEMA } from '../schema';

// List positions (docs/data-model.md#list-positions): where a served page ended, stored so
// the next page starts there instead of walking from the top. One item kind serves two
// uses. A **cursor** is an opaque random 128-bit id naming a write-once position, kept
// 24 h; following it continues after the last entry served (keyset paging). A
// **bookmark** is a position under a key the next page number finds again: (list, its
// filter, entries before the next page), kept 15 min; `index × size` equal to its count
// starts there. Both are found under the token's tenant only (`PAGE#<tenant>#…`), so a
// position is never another tenant's.
//
// A position is the sort key of the last entry served (`<created_at>#<id>`, unique and
// the same in every partition of the merged walk): below it in every partition is
// exactly the rest of the list, however the entries spread over statuses and shards.

export type ListKind = 'verify_accounts' | 'persons' | 'events' | 'screening_hits';

export const CURSOR_TTL_SECONDS = 24 * 60 * 60;
export const BOOKMARK_TTL_SECONDS = 15 * 60;

export interface Position {
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

/** A position as stored: a cursor is written once (128 random bits never meet one); a bookmark replaces the last of its key. */
export function positionItem(key: ItemKey, ttlSeconds: number, now: Date, position: Position): Record<string, unknown> {
  return {
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
  };
}

/** The position an item holds, unless it is none or past its TTL (DynamoDB deletes expired items late). */
export function toPosition(item: Record<string, unknown> | undefined, now: Date): Position | undefined {
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

/** The query as a position keeps it: bounds of a walk in progress dropped, filter values sorted. */
export function canonical(query: IndexQuery): IndexQuery {
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
