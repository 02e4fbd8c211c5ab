import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../domain/pagination';
import { isValidRoutingNumber } from '../domain/routing-number';
import {
  CONTROL_STATUSES,
  DEBIT_STATUSES,
  OWNERSHIP_STATUSES,
  STATEMENT_CODE_PATTERN,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
  checksOwnership,
} from '../domain/verify-account';

/**
 * Request schemas of the Verify endpoints (SPEC.md §4, DESIGN.md §3–4). Messages state
 * the rule and never echo the value (it may be an SSN or an account number).
 */

/** Letters (with diacritics), digits, spaces, hyphens and dashes, periods, apostrophes; at least one letter or digit. */
const NAME_PATTERN = /^(?=.*[\p{L}\p{N}])[\p{Script=Latin}\p{M}\p{N} .'’\-‐‑‒–—]+$/u;
const name = (what: string) =>
  z
    .string({ error: 'must be a string' })
    .refine((v) => [...v].length >= 1 && [...v].length <= 255, { message: 'must be 1 to 255 characters', abort: true })
    .refine((v) => NAME_PATTERN.test(v), {
      message: `${what} may hold letters, digits, spaces, hyphens, dashes, periods and apostrophes only`,
    });

const accountNumber = z.string({ error: 'must be a string' }).regex(/^\d{4,17}$/, 'must be 4 to 17 digits');
const nineDigits = z.string({ error: 'must be a string' }).regex(/^\d{9}$/, 'must be 9 digits without separators');
const phoneNumber = z
  .string({ error: 'must be a string' })
  .regex(/^\+[1-9]\d{1,14}$/, 'must be in international (E.164) format, e.g. +14155550123');

const person = z.strictObject(
  {
    first_name: name('first_name'),
    last_name: name('last_name'),
    ssn: nineDigits.optional(),
    phone_number: phoneNumber.optional(),
  },
  { error: 'must be an object' },
);

const business = z.strictObject(
  {
    business_name: name('business_name'),
    tax_id: nineDigits.optional(),
    phone_number: phoneNumber.optional(),
  },
  { error: 'must be an object' },
);

export const createVerifyAccountBody = z
  .strictObject({
    account_number: accountNumber,
    routing_number: z
      .string({ error: 'must be a string' })
      .refine(isValidRoutingNumber, 'must be a 9-digit ABA routing number with a valid checksum'),
    account_holder_name: name('account_holder_name'),
    type: z.enum(VERIFICATION_TYPES, { error: `must be one of ${VERIFICATION_TYPES.join(', ')}` }).default('status'),
    email: z.email({ error: 'must be an email address' }).max(254, 'must be at most 254 characters').optional(),
    person: person.optional(),
    business: business.optional(),
    sender_name: name('sender_name').optional(),
  })
  .superRefine((body, ctx) => {
    const given = [body.person, body.business].filter(Boolean).length;
    if (checksOwnership(body.type)) {
      if (given === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['person'],
          message: `type ${body.type} needs ownership details: a person or a business`,
          params: { error_code: 'missing_ownership_details' },
        });
      } else if (given > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['business'],
          message: 'give either a person or a business, not both',
          params: { error_code: 'invalid_ownership_details' },
        });
      }
    } else if (given > 0) {
      ctx.addIssue({
        code: 'custom',
        path: [body.person ? 'person' : 'business'],
        message: `type ${body.type} does not check ownership; use status_ownership or control_ownership`,
        params: { error_code: 'invalid_ownership_details' },
      });
    }
  });
export type CreateVerifyAccountBody = z.output<typeof createVerifyAccountBody>;

export const accountIdParams = z.object({ id: z.uuid({ error: 'must be a UUID' }) });

export const controlBody = z.strictObject({
  statement_code: z
    .string({ error: 'must be a string' })
    .regex(STATEMENT_CODE_PATTERN, 'must be the 4 letters or digits shown on the statement'),
});

/** A filter given once or repeated (`?s=a&s=b`); commas also separate values (`?s=a,b`). */
const many = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).filter((s) => s !== ''),
    z.array(z.enum(values, { error: `values must be among ${values.join(', ')}` })),
  );

/** Query values arrive as strings; a scalar parameter given twice is an error, not a guess. */
const integer = (min: number, max: number, fallback: number) =>
  z
    .string({ error: 'must be given once' })
    .regex(/^\d+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback);

const dateTime = z
  .string({ error: 'must be given once' })
  .pipe(z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z' }))
  .transform((v) => clampToFourDigitYears(new Date(v).toISOString()));

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

/** Pages far beyond any tenant's size are refused rather than walked. */
export const MAX_PAGE_INDEX = 10_000_000;

export const listVerifyAccountsQuery = z
  .strictObject({
    index: integer(0, MAX_PAGE_INDEX, 0),
    size: integer(0, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    id: z.string({ error: 'must be given once' }).pipe(z.uuid({ error: 'must be a UUID' })).optional(),
    start_time: dateTime.optional(),
    end_time: dateTime.optional(),
    account_number: z.string({ error: 'must be given once' }).pipe(accountNumber).optional(),
    verification_status: many(VERIFICATION_STATUSES).optional(),
    ownership_status: many(OWNERSHIP_STATUSES).optional(),
    control_status: many(CONTROL_STATUSES).optional(),
    debit_status: many(DEBIT_STATUSES).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.start_time && q.end_time && q.end_time <= q.start_time) {
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time must be after start_time', params: { error_code: 'invalid_end_time' } });
    }
  });
export type ListVerifyAccountsQuery = z.output<typeof listVerifyAccountsQuery>;
