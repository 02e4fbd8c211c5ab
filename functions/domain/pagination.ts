// Lists are paged by page number (docs/api.md#lists): page `index` of length `size` holds the
// items `index*size … index*size+size-1` of the filtered, ordered set.

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

/**
 * The most entries a page number may start past (`index × size`). A page number is cold:
 * nothing says where page `index` begins, so reading it walks every entry before it, and
 * one request past this would read a whole large tenant. 10,000 entries is Elasticsearch's
 * `max_result_window` and keeps the deepest page (10,500 entries read) within a second or
 * two; older entries are reached by narrowing the list (`start_time`/`end_time`, filters).
 * A position the service hands out (a bookmark, a cursor) says where its page begins and
 * so is not a cold page number: it needs no such ceiling.
 */
export const MAX_PAGE_OFFSET = 10_000;

/** What the refusal of a page past the ceiling says: the limit and how to go further, never the value sent. */
export const PAGE_CEILING_MESSAGE =
  `index × size (the entries before the page) may be at most ${MAX_PAGE_OFFSET.toLocaleString('en-US')}, ` +
  `e.g. index 0–${MAX_PAGE_OFFSET / MAX_PAGE_SIZE} at size ${MAX_PAGE_SIZE} or 0–${MAX_PAGE_OFFSET / DEFAULT_PAGE_SIZE} at size ${DEFAULT_PAGE_SIZE}; ` +
  'to reach older entries, narrow the list with start_time/end_time or a filter';

export interface PageWindow {
  /** Items of the ordered set to pass over before the page starts. */
  skip: number;
  /** Items on the page. */
  take: number;
}

/** Whether page `index` of length `size` starts within the ceiling ({@link MAX_PAGE_OFFSET}). */
export const isWithinPageCeiling = (index: number, size: number): boolean =>
  index <= MAX_PAGE_OFFSET && index * size <= MAX_PAGE_OFFSET;

export function pageWindow(index: number, size: number): PageWindow {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError('index must be a non-negative integer');
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_PAGE_SIZE) {
    throw new RangeError(`size must be an integer from 0 to ${MAX_PAGE_SIZE}`);
  }
  if (!isWithinPageCeiling(index, size)) throw new RangeError(PAGE_CEILING_MESSAGE);
  return { skip: index * size, take: size };
}
