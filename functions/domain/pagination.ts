/**
 * Lists are paged by page number (docs/api.md#lists): page `index` of length `size` holds the
 * items `index*size … index*size+size-1` of the filtered, ordered set.
 */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

export interface PageWindow {
  /** Items of the ordered set to pass over before the page starts. */
  skip: number;
  /** Items on the page. */
  take: number;
}

export function pageWindow(index: number, size: number): PageWindow {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError('index must be a non-negative integer');
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_PAGE_SIZE) {
    throw new RangeError(`size must be an integer from 0 to ${MAX_PAGE_SIZE}`);
  }
  return { skip: index * size, take: size };
}
