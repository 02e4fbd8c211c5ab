import * as z from 'zod/mini';
import { SCOPES } from './scopes';
import type { IssueDetail } from './validation';

// Building blocks of the response schemas (functions/<area>/openapi-responses.ts): what the
// service answers, as zod schemas, so the OpenAPI document is generated from them
// (lib/openapi) and the integration tests parse every real response with them. Handlers
// never import these (bundle size): the presenters build the bodies, and the tests hold
// the two together. Objects are strict: a field a presenter adds without documenting it
// fails the tests.

/** RFC 3339 in UTC with milliseconds, as every response timestamp (docs/api.md#timestamps). */
export const timestamp = () =>
  z.iso.datetime({ precision: 3 }).check(z.describe('RFC 3339 date-time in UTC with milliseconds.'));

export const id = () => z.uuid().check(z.describe('Unique id of the resource (a UUID).'));

/** An enum of the domain's own constants, so the document cannot drift from the code. */
export const oneOf = <T extends readonly [string, ...string[]]>(values: T, description: string) =>
  z.enum(values).check(z.describe(description));

const ISSUE_PROBLEMS = ['missing', 'invalid', 'unknown'] as const satisfies readonly IssueDetail['problem'][];
// Compile-time: every problem validation.ts can report is listed above.
const everyProblemListed: [Exclude<IssueDetail['problem'], (typeof ISSUE_PROBLEMS)[number]>] extends [never]
  ? true
  : never = true;
void everyProblemListed;

export const validationIssue = z
  .strictObject({
    field: z.string().check(z.describe('The field, as a dotted path (`person.ssn`, `addresses.0.city`).')),
    problem: z.enum(ISSUE_PROBLEMS),
    message: z.string().check(z.describe('The rule broken; never the value sent.')),
  })
  .check(z.describe('One issue found in the request.'));

/** What `details` may hold, by kind of error. */
export const errorDetails = z
  .union([
    z.strictObject({ issues: z.array(validationIssue).check(z.describe('Every issue found, not only the first.')) }),
    z.strictObject({ retry_after_seconds: z.int().check(z.positive()) }),
    z.strictObject({ attempts_remaining: z.int().check(z.nonnegative()) }),
    z.strictObject({
      required_scopes: z.array(z.enum(SCOPES)).check(z.describe('Any one of these scopes reads what was asked.')),
      event_types: z.optional(
        z.array(z.string()).check(z.describe('The kinds asked for that the token does not read.')),
      ),
    }),
    z.strictObject({
      status: z.string().check(z.describe('A screening hit decided already: its review status.')),
      decided_by: z.optional(z.string()),
      decided_at: z.optional(timestamp()),
    }),
  ])
  .check(z.describe('More about the error, when there is more to say.'));

const errorFields = (codes: readonly string[]) => ({
  error_code: (codes.length > 0 ? z.enum(codes as [string, ...string[]]) : z.string()).check(
    z.describe('Stable, machine-readable code of the error.'),
  ),
  message: z.string().check(z.describe('For people; may change. Never repeats a value that was sent.')),
  details: z.optional(errorDetails),
  request_id: z
    .string()
    .check(z.describe('API Gateway request id, also in the `x-request-id` header and every log line of the request.')),
});

/**
 * The contract's error body (Orum's `ErrorResponse` plus `request_id`); `codes` narrows
 * `error_code` to the codes one answer can carry, none leaves it a string.
 */
export const errorResponse = (codes: readonly string[] = []) =>
  z
    .strictObject(errorFields(codes))
    .check(z.describe('An error the service answers (docs/api.md#errors). Codes may be added: accept unknown ones.'));

/** Orum's `ControlErrorResponse`: a wrong statement code also says how many attempts remain, at the top level. */
export const controlErrorResponse = (codes: readonly string[] = []) =>
  z
    .strictObject({
      ...errorFields(codes),
      attempts_remaining: z.optional(
        z.int().check(z.nonnegative(), z.describe('Statement-code attempts left (on `incorrect_statement_code`).')),
      ),
    })
    .check(z.describe('An error of `POST /verify/accounts/{id}/control`; see `ErrorResponse`.'));

export const SHARED_COMPONENTS = {
  ErrorResponse: errorResponse(),
  ControlErrorResponse: controlErrorResponse(),
  ValidationIssue: validationIssue,
};
