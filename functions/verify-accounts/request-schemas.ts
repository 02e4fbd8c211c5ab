import * as z from 'zod/mini';
import { isValidRoutingNumber } from '#domain/routing-number';
import { checksOwnership, STATEMENT_CODE_PATTERN, VERIFICATION_TYPES } from '#domain/verify-account';
import { accountNumberText, documented, nameText, string } from '#shared/input-schemas';
import { withFieldCodes } from '#shared/validation';

// Request schemas of the Verify endpoints (docs/api.md#request-rules, #lists, #validation-codes). Messages state
// the rule and never echo the value (it may be an SSN or an account number).
//
// Written with `zod/mini`, zod's tree-shakable build: the same schemas and issues as
// classic zod, at a fraction of the bundle (classic zod alone was ~445 KB of every
// handler), which shortens every cold start.

const name = () => nameText(1);

/**
 * Orum's account number: 4 to 17 digits, single hyphens allowed between them
 * (`0010-1044595`). What passes on is the digits alone, so one bank account is one value
 * wherever it is used: the answer, the account-number index and filter, the 5-per-24 h
 * limit, the sandbox's last four (docs/decisions.md#account-numbers-with-hyphens).
 */
export const accountNumber = documented(
  z.pipe(
    accountNumberText(),
    z.transform((v) => v.replaceAll('-', '')),
  ),
  { description: '4 to 17 digits, which single hyphens may separate; the account keeps and answers the digits.' },
);
const nineDigits = string().check(z.regex(/^\d{9}$/, 'must be 9 digits without separators'));
const phoneNumber = string().check(
  z.regex(/^\+[1-9]\d{1,14}$/, 'must be in international (E.164) format, e.g. +14155550123'),
);

const person = z.strictObject(
  {
    first_name: name(),
    last_name: name(),
    ssn: z.optional(nineDigits),
    phone_number: z.optional(phoneNumber),
  },
  { error: 'must be an object' },
);

const business = z.strictObject(
  {
    business_name: name(),
    tax_id: z.optional(nineDigits),
    phone_number: z.optional(phoneNumber),
  },
  { error: 'must be an object' },
);

/**
 * Fields inside `person` and `business` answer their own codes, as Orum documents them
 * (and as the persons routes answer theirs): `missing_first_name`, `invalid_ssn`,
 * `invalid_tax_id`, `invalid_phone_number`, … A `person` or `business` that is no object
 * answers `invalid_person` / `invalid_business`; which of them a type needs answers
 * `missing_ownership_details` / `invalid_ownership_details`.
 */
const OWNERSHIP_FIELD_CODES = {
  'person.first_name': 'first_name',
  'person.last_name': 'last_name',
  'person.ssn': 'ssn',
  'person.phone_number': 'phone_number',
  'business.business_name': 'business_name',
  'business.tax_id': 'tax_id',
  'business.phone_number': 'phone_number',
} as const;

const createBody = z
  .strictObject({
    account_number: accountNumber,
    routing_number: documented(
      string().check(z.refine(isValidRoutingNumber, 'must be a 9-digit ABA routing number with a valid checksum')),
      { pattern: '^\\d{9}$' },
    ),
    account_holder_name: name(),
    type: z._default(
      z.enum(VERIFICATION_TYPES, { error: `must be one of ${VERIFICATION_TYPES.join(', ')}` }),
      'status',
    ),
    email: z.optional(
      z.email({ error: 'must be an email address' }).check(z.maxLength(254, 'must be at most 254 characters')),
    ),
    person: z.optional(person),
    business: z.optional(business),
    sender_name: z.optional(name()),
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
export const createVerifyAccountBody = withFieldCodes(createBody, OWNERSHIP_FIELD_CODES);
export type CreateVerifyAccountBody = z.output<typeof createVerifyAccountBody>;

export const controlBody = z.strictObject({
  statement_code: string().check(
    z.regex(STATEMENT_CODE_PATTERN, 'must be the 4 letters or digits shown on the statement'),
  ),
});
