import * as z from 'zod/mini';
import {
  DEFAULT_PAGE_SIZE,
  isWithinPageCeiling,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
  PAGE_CEILING_MESSAGE,
} from '#domain/pagination';

// Building blocks every area's request schemas share (zod/mini): strings measured in
// characters, the name rule, and the list query's parameters. Messages state the rule and
// never echo the value (it may be an SSN or an account number).

export const string = () => z.string({ error: 'must be a string' });

/** Lengths count characters (code points), not UTF-16 units. */
export const chars = (min: number, max: number, what = 'must be') =>
  z.refine<string>((v) => [...v].length >= min && [...v].length <= max, {
    message: min === 0 ? `${what} at most ${max} characters` : `${what} ${min} to ${max} characters`,
    abort: true,
  });
/**
 * JSON Schema keywords for what a refinement checks, where zod cannot derive them (the
 * OpenAPI document is generated from these schemas, lib/openapi). JSON Schema counts
 * lengths in code points too, so `chars` and `minLength`/`maxLength` agree.
 */
export function documented<S extends z.core.$ZodType>(schema: S, keywords: z.core.GlobalMeta): S {
  z.globalRegistry.add(schema, keywords);
  return schema;
}

export const text = (min: number, max: number) =>
  documented(string().check(chars(min, max)), { minLength: min, maxLength: max });

/**
 * Verify's names (holder, sender, ownership), as Orum's AccountHolderName and SenderName
 * patterns: every printable ASCII character but the backslash (digits and punctuation such
 * as `&` and `,` included: `Smith & Sons, Inc.`), the right single quote ’, Latin-1's
 * letters and signs, Latin Extended-A; and beyond Orum's list, as a person's names, every
 * Latin letter, combining marks and the Unicode hyphens and dashes. At least one letter or
 * digit (docs/decisions.md#names).
 */
export const NAME_PATTERN = /^(?=.*[\p{L}\p{N}])[ -[\]-~’¡-¬®-ſ\p{Script=Latin}\p{M}‐-—]+$/u;

/**
 * A person's names, as Orum's FirstName / MiddleName / LastName patterns: every printable
 * ASCII character but digits and the backslash, the right single quote ’, Latin-1's
 * letters and signs, Latin Extended-A; and beyond Orum's list, every Latin letter,
 * combining marks and the Unicode hyphens and dashes (Vietnamese names, decomposed
 * diacritics), as Verify's names. At least one letter (docs/decisions.md#a-persons-names).
 */
export const PERSON_NAME_PATTERN = /^(?=.*\p{L})[ -/:-[\]-~’¡-¬®-ſ\p{Script=Latin}\p{M}‐-—]+$/u;

/**
 * A name of up to 255 characters by `pattern`; `min` 0 lets an empty one through (Orum's
 * middle name). The document gives the pattern too, to be read with the `u` flag.
 */
const nameOf = (pattern: RegExp, rule: string) => (min: number) =>
  documented(text(min, 255).check(z.refine((v) => v === '' || pattern.test(v), { message: rule })), {
    description: `A name that ${rule}.`,
    pattern: min === 0 ? `^$|${pattern.source}` : pattern.source,
  });

export const nameText = (min = 1) =>
  nameOf(
    NAME_PATTERN,
    'may hold letters, digits, spaces and punctuation, with at least one letter or digit; no backslash',
  )(min);

export const personNameText = (min = 1) =>
  nameOf(
    PERSON_NAME_PATTERN,
    'may hold letters, spaces and punctuation, with at least one letter; no digits, no backslash',
  )(min);

/**
 * Orum's UsBankAccountNumber: 4 to 17 digits, which single hyphens may separate
 * (`0010-1044595`); the verify routes keep the digits alone, the persons filter matches none.
 */
export const accountNumberText = () =>
  string().check(
    z.regex(/^(?:\d-?){3,16}\d$/, 'must be 4 to 17 digits, which single hyphens may separate (0010-1044595)'),
  );

/** A filter given once or repeated (`?s=a&s=b`); commas also separate values (`?s=a,b`). */
export const many = <T extends readonly [string, ...string[]]>(values: T) =>
  z.pipe(
    z.transform((v: unknown) =>
      (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).filter((s) => s !== ''),
    ),
    z.array(z.enum(values, { error: `values must be among ${values.join(', ')}` })),
  );

/** Query values arrive as strings; a scalar parameter given twice is an error, not a guess. */
export const once = () => z.string({ error: 'must be given once' });

/** A query integer; `aboveMax` says more than the bound when a value above it has a reason of its own. */
export const integer = (min: number, max: number, fallback: number, aboveMax = `must be at most ${max}`) =>
  z._default(integerValue(min, max, aboveMax), fallback);

const integerValue = (min: number, max: number, aboveMax = `must be at most ${max}`) =>
  z.pipe(
    once().check(z.regex(/^\d+$/, `must be an integer from ${min} to ${max}`)),
    z.pipe(
      z.transform(Number),
      z.number().check(z.int(), z.minimum(min, `must be at least ${min}`), z.maximum(max, aboveMax)),
    ),
  );

export const dateTime = z.pipe(
  z.pipe(once(), z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z' })),
  z.transform((v: string) => clampToFourDigitYears(new Date(v).toISOString())),
);

/**
 * Times are compared as strings, which holds for four-digit UTC years only; an offset
 * can push a valid RFC 3339 time just past them (e.g. 9999-12-31T23:59:59-01:00), and
 * such a bound means "after / before everything".
 */
function clampToFourDigitYears(iso: string): string {
  if (iso.startsWith('+')) return '9999-12-31T23:59:59.999Z';
  if (iso.startsWith('-')) return '0000-01-01T00:00:00.000Z';
  return iso;
}

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

const uuid = z.uuid();
export const isUuid = (v: unknown): v is string => typeof v === 'string' && z.safeParse(uuid, v).success;

/**
 * Path parameters `{ id }` where a malformed id answers `404 <errorCode>` like an unknown
 * one (Orum's convention for persons): no record can have it, and it never reaches a key.
 */
export const unknownIdParams = (errorCode: string, message: string) =>
  z.object({
    id: z.string().check(z.refine(isUuid, { message, params: { error_code: errorCode, status: 404 } })),
  });

/** An `id` list filter answering the code the contract names for it, given twice included. */
export const idFilter = (errorCode: string, message: string) =>
  documented(
    z.pipe(
      z.unknown().check(z.refine(isUuid, { message, params: { error_code: errorCode } })),
      z.transform((v) => v as string),
    ),
    { type: 'string', format: 'uuid' },
  );

/** `end_time` must come after `start_time` (`invalid_end_time`). */
export const endAfterStart = z.superRefine((q: { start_time?: string; end_time?: string }, ctx) => {
  if (q.start_time && q.end_time && q.end_time <= q.start_time) {
    ctx.addIssue({
      code: 'custom',
      path: ['end_time'],
      message: 'end_time must be after start_time',
      params: { error_code: 'invalid_end_time' },
    });
  }
});

/**
 * The body of a route that takes none: an empty body is `{}`, and a field is refused
 * (`unknown_field`) like on every other route, never silently ignored.
 */
export const emptyBody = z.strictObject({});

/**
 * The query of a route without filters: any parameter is `unknown_parameter`, as on the
 * routes that have some (docs/decisions.md#unknown-query-parameters-answer-400).
 */
export const noQueryParameters = z.strictObject({});
