import * as z from 'zod/mini';
import {
  DEFAULT_PAGE_SIZE,
  isWithinPageCeiling,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
  PAGE_CEILING_MESSAGE,
} from '#domain/pagination';
import { documented } from './input-schemas';
import { integer, integerValue, once } from './list-filters';

// The query every list route is built with: the page parameters, their ceiling and the
// cursor's rule, then the list's own filters (./list-filters.ts).

/**
 * The page parameters of every list (docs/api.md#lists) and their ceiling: a page may
 * start at most MAX_PAGE_OFFSET entries into the list (`index × size`), so one request
 * never walks a whole tenant. `index` alone is bounded by the same number (a page of one
 * entry), which is what the OpenAPI document shows; the product is checked on the query.
 * `index` stays absent when not given (0 is its default), so a `cursor` beside it is
 * told apart. A cursor is 128 random bits, base64url (22 characters).
 */
const pageParameters = {
  index: z.optional(
    documented(
      integerValue(
        0,
        MAX_PAGE_OFFSET,
        `must be at most ${MAX_PAGE_OFFSET.toLocaleString('en-US')}: ${PAGE_CEILING_MESSAGE}`,
      ),
      { default: 0 },
    ),
  ),
  size: integer(0, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  cursor: z.optional(
    documented(once(), {
      description:
        'The page after another, from the `Link: <…>; rel="next"` header of the previous answer (kept 24 hours). ' +
        'It carries the list, its filters and where the previous page ended: give it alone, or with `size`.',
    }),
  ),
};

/** A cursor carries the list's filters and position: only `size` may stand beside it. */
const cursorAlone = z.superRefine((q: Record<string, unknown>, ctx) => {
  if (q.cursor === undefined) return;
  const beside = Object.keys(q).filter((name) => name !== 'cursor' && name !== 'size' && q[name] !== undefined);
  if (beside.length === 0) return;
  ctx.addIssue({
    code: 'custom',
    path: ['cursor'],
    message: `a cursor carries the page and the filters of its list: give it alone or with size, not with ${beside.join(', ')}`,
    params: { error_code: 'invalid_cursor' },
  });
});

// Typed loosely so that it checks any list's query; both are numbers once parsed.
const withinPageCeiling = z.superRefine((q: Record<string, unknown>, ctx) => {
  if (isWithinPageCeiling((q.index as number | undefined) ?? 0, q.size as number)) return;
  ctx.addIssue({
    code: 'custom',
    path: ['index'],
    message: PAGE_CEILING_MESSAGE,
    params: { error_code: 'invalid_index' },
  });
});

/**
 * The query of a list route: `index` and `size` within the ceiling, then the list's own
 * filters; any other parameter is `unknown_parameter`. Every list is built with it, so
 * every list has the same page rules.
 */
export const listQuery = <Filters extends z.core.$ZodLooseShape>(filters: Filters) =>
  z.strictObject({ ...pageParameters, ...filters }).check(withinPageCeiling, cursorAlone);
