import * as z from 'zod/mini';
import { ValidationError } from './errors';

/**
 * Turns zod issues into the contract's validation error: the code names the first
 * failing field (`missing_<field>`, `invalid_<field>`; nested fields report their
 * top-level parent, e.g. `invalid_person`), unknown fields win over everything
 * (`unknown_field` in bodies, `unknown_parameter` in query strings), and every issue
 * is listed in `details.issues`. A refinement may name its own code with
 * `params: { error_code }`. Messages describe the rule, never the rejected value.
 */
export type InputSource = 'body' | 'query' | 'path';

export interface IssueDetail {
  field: string;
  problem: 'missing' | 'invalid' | 'unknown';
  message: string;
}

export function parseInput<S extends z.core.$ZodType>(schema: S, input: unknown, source: InputSource): z.output<S> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  throw toValidationError(result.error.issues, input, source);
}

export function toValidationError(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  source: InputSource,
): ValidationError {
  const details = issues.flatMap((issue) => describe(issue, input));
  const unknown = details.find((d) => d.problem === 'unknown');
  if (unknown) {
    const code = source === 'query' ? 'unknown_parameter' : 'unknown_field';
    const what = source === 'query' ? 'query parameter' : 'field';
    return new ValidationError(code, `unknown ${what} '${unknown.field}'`, { issues: details });
  }
  const first = issues[0];
  const custom =
    first.code === 'custom' ? (first.params as { error_code?: string } | undefined)?.error_code : undefined;
  if (custom) return new ValidationError(custom, first.message, { issues: details });

  const [detail] = describe(first, input);
  const top = String(first.path[0] ?? source);
  const nested = first.path.length > 1;
  const problem = nested ? 'invalid' : detail.problem;
  const message = nested ? `${top} is invalid: ${detail.field} ${detail.message}` : `${top} ${detail.message}`;
  return new ValidationError(`${problem}_${top}`, message, { issues: details });
}

function describe(issue: z.core.$ZodIssue, input: unknown): IssueDetail[] {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const parent = field ? `${field}.` : '';
    return issue.keys.map((key) => ({ field: `${parent}${key}`, problem: 'unknown', message: 'is not a known field' }));
  }
  const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
  return [
    {
      field: field || '(root)',
      problem: missing ? 'missing' : 'invalid',
      message: missing ? 'is required' : issue.message,
    },
  ];
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
