import { pageWindow } from '#domain/pagination';
import type { PageRequest } from '#shared/db/list-positions/index';

/** The page parameters every list query has once parsed (`listQuery`). */
export interface PageQuery {
  index?: number;
  size: number;
  cursor?: string;
}

/** What a list asks its repository for: the page after a cursor, or page `index` (0 when absent). */
export const pageRequestOf = (query: PageQuery): PageRequest =>
  query.cursor !== undefined
    ? { cursor: query.cursor, take: query.size }
    : { page: pageWindow(query.index ?? 0, query.size) };

/**
 * The RFC 8288 `Link` header of a full page: the next page of the same list, by cursor,
 * as a path relative to the API's base URL (docs/api.md#cursors).
 */
export function nextLink(path: string, query: PageQuery, next: string | undefined): Record<string, string> {
  if (next === undefined) return {};
  return { link: `<${path}?cursor=${next}&size=${query.size}>; rel="next"` };
}
