import * as z from 'zod/mini';

// Building blocks every area's request schemas share (zod/mini): strings measured in
// characters, the name rule, path ids and empty bodies; a list's query and its filters are
// in list-query.ts and list-filters.ts. Messages state the rule and never echo the value
// (it may be an SSN or an account number). A schema built here at load is marked pure, as
// ports are (`#shared/dependencies`): a route that does not use it then leaves it, and what
// of zod only it needs, out of its bundle.

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

const uuid = /* @__PURE__ */ z.uuid();
export const isUuid = (v: unknown): v is string => typeof v === 'string' && z.safeParse(uuid, v).success;

/**
 * Path parameters `{ id }` where a malformed id answers `404 <errorCode>` like an unknown
 * one (Orum's convention for persons): no record can have it, and it never reaches a key.
 */
export const unknownIdParams = (errorCode: string, message: string) =>
  z.object({
    id: z.string().check(z.refine(isUuid, { message, params: { error_code: errorCode, status: 404 } })),
  });

/**
 * The body of a route that takes none: an empty body is `{}`, and a field is refused
 * (`unknown_field`) like on every other route, never silently ignored.
 */
export const emptyBody = /* @__PURE__ */ z.strictObject({});

/**
 * The query of a route without filters: any parameter is `unknown_parameter`, as on the
 * routes that have some (docs/decisions.md#unknown-query-parameters-answer-400).
 */
export const noQueryParameters = /* @__PURE__ */ z.strictObject({});
