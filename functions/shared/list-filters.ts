import * as z from 'zod/mini';
import { documented, isUuid } from './input-schemas';

// The filters of list routes' queries (zod/mini): query values arrive as strings, a
// filter may be repeated, times are RFC 3339 and ids are UUIDs. Messages state the rule
// and never echo the value.

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

/** A query integer with no default, as `index`, which stays absent when not given. */
export const integerValue = (min: number, max: number, aboveMax = `must be at most ${max}`) =>
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
