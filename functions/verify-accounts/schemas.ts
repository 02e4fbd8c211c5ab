import * as z from 'zod/mini';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#domain/pagination';
import { isValidRoutingNumber } from '#domain/routing-number';
import {
  CONTROL_STATUSES,
  checksOwnership,
  DEBIT_STATUSES,
  OWNERSHIP_STATUSES,
  STATEMENT_CODE_PATTERN,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
} from '#domain/verify-account';

/**
 * Request schemas of the Verify endpoints (docs/api.md#request-rules, #lists, #validation-codes). Messages state
 * the rule and never echo the value (it may be an SSN or an account number).
 *
 * Written with `zod/mini`, zod's tree-shakable build: the same schemas and issues as
 * classic zod, at a fraction of the bundle (classic zod alone was ~445 KB of every
 * handler), which shortens every cold start.
 */

/** Letters (with diacritics), digits, spaces, hyphens and dashes, periods, apostrophes; at least one letter or digit. */
const NAME_PATTERN = /^(?=.*[\p{L}\p{N}])[\p{Script=Latin}\p{M}\p{N} .'’\-‐‑‒–—]+$/u;
const string = () => z.string({ error: 'must be a string' });
const name = (what: string) =>
  string().check(
    z.refine((v) => [...v].length >= 1 && [...v].length <= 255, {
      message: 'must be 1 to 255 characters',
      abort: true,
    }),
    z.refine((v) => NAME_PATTERN.test(v), {
      message: `${what} may hold letters, digits, spaces, hyphens, dashes, periods and apostrophes only`,
    }),
  );

const accountNumber = string().check(z.regex(/^\d{4,17}$/, 'must be 4 to 17 digits'));
const nineDigits = string().check(z.regex(/^\d{9}$/, 'must be 9 digits without separators'));
const phoneNumber = string().check(
  z.regex(/^\+[1-9]\d{1,14}$/, 'must be in international (E.164) format, e.g. +14155550123'),
);

const person = z.strictObject(
  {
    first_name: name('first_name'),
    last_name: name('last_name'),
    ssn: z.optional(nineDigits),
    phone_number: z.optional(phoneNumber),
  },
  { error: 'must be an object' },
);

const business = z.strictObject(
  {
    business_name: name('business_name'),
    tax_id: z.optional(nineDigits),
    phone_number: z.optional(phoneNumber),
  },
  { error: 'must be an object' },
);

export const createVerifyAccountBody = z
  .strictObject({
    account_number: accountNumber,
    routing_number: string().check(
      z.refine(isValidRoutingNumber, 'must be a 9-digit ABA routing number with a valid checksum'),
    ),
    account_holder_name: name('account_holder_name'),
    type: z._default(
      z.enum(VERIFICATION_TYPES, { error: `must be one of ${VERIFICATION_TYPES.join(', ')}` }),
      'status',
    ),
    email: z.optional(
      z.email({ error: 'must be an email address' }).check(z.maxLength(254, 'must be at most 254 characters')),
    ),
    person: z.optional(person),
    business: z.optional(business),
    sender_name: z.optional(name('sender_name')),
  })
  .check(
    z.superRefine((body, ctx) => {
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
    }),
  );
export type CreateVerifyAccountBody = z.output<typeof createVerifyAccountBody>;

export const accountIdParams = z.object({ id: z.uuid({ error: 'must be a UUID' }) });

/** A route that takes no body still refuses unknown fields (an empty body is `{}`). */
export const emptyBody = z.strictObject({});

export const controlBody = z.strictObject({
  statement_code: string().check(
    z.regex(STATEMENT_CODE_PATTERN, 'must be the 4 letters or digits shown on the statement'),
  ),
});

/** A filter given once or repeated (`?s=a&s=b`); commas also separate values (`?s=a,b`). */
const many = <T extends readonly [string, ...string[]]>(values: T) =>
  z.pipe(
    z.transform((v: unknown) =>
      (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).filter((s) => s !== ''),
    ),
    z.array(z.enum(values, { error: `values must be among ${values.join(', ')}` })),
  );

/** Query values arrive as strings; a scalar parameter given twice is an error, not a guess. */
const once = () => z.string({ error: 'must be given once' });
const integer = (min: number, max: number, fallback: number) =>
  z._default(
    z.pipe(
      once().check(z.regex(/^\d+$/, `must be an integer from ${min} to ${max}`)),
      z.pipe(
        z.transform(Number),
        z.number().check(z.int(), z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`)),
      ),
    ),
    fallback,
  );

const dateTime = z.pipe(
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

const uuid = z.uuid();

/** The `id` filter answers Orum's documented `invalid_account_id`, given twice included. */
const accountIdFilter = z.pipe(
  z.unknown().check(
    z.refine((v) => typeof v === 'string' && z.safeParse(uuid, v).success, {
      message: 'must be one verify account id (a UUID)',
      params: { error_code: 'invalid_account_id' },
    }),
  ),
  z.transform((v) => v as string),
);

/** Pages far beyond any tenant's size are refused rather than walked. */
export const MAX_PAGE_INDEX = 10_000_000;

export const listVerifyAccountsQuery = z
  .strictObject({
    index: integer(0, MAX_PAGE_INDEX, 0),
    size: integer(0, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    id: z.optional(accountIdFilter),
    start_time: z.optional(dateTime),
    end_time: z.optional(dateTime),
    account_number: z.optional(z.pipe(once(), accountNumber)),
    verification_status: z.optional(many(VERIFICATION_STATUSES)),
    ownership_status: z.optional(many(OWNERSHIP_STATUSES)),
    control_status: z.optional(many(CONTROL_STATUSES)),
    debit_status: z.optional(many(DEBIT_STATUSES)),
  })
  .check(
    z.superRefine((q, ctx) => {
      if (q.start_time && q.end_time && q.end_time <= q.start_time) {
        ctx.addIssue({
          code: 'custom',
          path: ['end_time'],
          message: 'end_time must be after start_time',
          params: { error_code: 'invalid_end_time' },
        });
      }
    }),
  );
export type ListVerifyAccountsQuery = z.output<typeof listVerifyAccountsQuery>;
