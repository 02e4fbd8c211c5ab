import * as z from 'zod/mini';
import { type AppError, NotFoundError, ValidationError } from './errors';

// Turns zod issues into the contract's validation error: the code names the first
// failing field (`missing_<field>`, `invalid_<field>`; nested fields report their
// top-level parent, e.g. `invalid_addresses`), unknown fields win over everything
// (`unknown_field` in bodies, `unknown_parameter` in query strings), and every issue
// is listed in `details.issues`. Messages describe the rule, never the rejected value.
//
// Two ways to name another code, both because Orum's clients expect its codes:
// - a refinement may name its own code with `params: { error_code }`, and answer 404
//   instead of 400 with `params: { error_code, status: 404 }`;
// - a schema may give nested fields codes of their own with {@link withFieldCodes}.

export type InputSource = 'body' | 'query' | 'path';

export interface IssueDetail {
  field: string;
  problem: 'missing' | 'invalid' | 'unknown';
  message: string;
}

/**
 * Fields that answer a code of their own: a dotted path pattern (`*` stands for any one
 * key or array index) → the name used in `missing_<name>` / `invalid_<name>`. An issue
 * at the field itself answers `missing_…` or `invalid_…`; an issue deeper inside it
 * answers `invalid_…`. The longest pattern that matches wins; a field no pattern matches
 * reports its top-level parent.
 */
export type FieldCodes = Readonly<Record<string, string>>;

interface CustomParams {
  error_code?: string;
  status?: 404;
}

const fieldCodeRegistry = z.registry<{ fieldCodes: FieldCodes }>();

/** Registers the field codes of a schema (the one handed to {@link parseInput}) and returns it. */
export function withFieldCodes<S extends z.core.$ZodType>(schema: S, fieldCodes: FieldCodes): S {
  fieldCodeRegistry.add(schema, { fieldCodes });
  return schema;
}

/** The field codes a schema was registered with (the OpenAPI document lists the codes they answer). */
export const fieldCodesOf = (schema: z.core.$ZodType): FieldCodes => fieldCodeRegistry.get(schema)?.fieldCodes ?? {};

export function parseInput<S extends z.core.$ZodType>(schema: S, input: unknown, source: InputSource): z.output<S> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  throw toValidationError(result.error.issues, input, source, fieldCodeRegistry.get(schema)?.fieldCodes);
}

export function toValidationError(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  source: InputSource,
  fieldCodes: FieldCodes = {},
): AppError {
  const details = issues.flatMap((issue) => describe(issue, input));
  const unknown = details.find((d) => d.problem === 'unknown');
  if (unknown) {
    const code = source === 'query' ? 'unknown_parameter' : 'unknown_field';
    const what = source === 'query' ? 'query parameter' : 'field';
    return new ValidationError(code, `unknown ${what} '${unknown.field}'`, { issues: details });
  }
  const first = issues[0];
  const custom = first.code === 'custom' ? (first.params as CustomParams | undefined) : undefined;
  if (custom?.status === 404 && custom.error_code) return new NotFoundError(custom.error_code, first.message);
  if (custom?.error_code) return new ValidationError(custom.error_code, first.message, { issues: details });

  const [detail] = describe(first, input);
  const owner = owningField(first.path, fieldCodes);
  if (!owner) {
    return new ValidationError(`${detail.problem}_${source}`, `${source} ${detail.message}`, { issues: details });
  }
  const nested = first.path.length > owner.depth;
  const problem = nested ? 'invalid' : detail.problem;
  const message = nested
    ? `${owner.field} is invalid: ${detail.field} ${detail.message}`
    : `${owner.field} ${detail.message}`;
  return new ValidationError(`${problem}_${owner.name}`, message, { issues: details });
}

/** The field whose code an issue answers: the longest matching pattern, else the top-level field. */
function owningField(
  path: readonly PropertyKey[],
  fieldCodes: FieldCodes,
): { name: string; field: string; depth: number } | undefined {
  if (path.length === 0) return undefined;
  const keys = path.map(String);
  let best: { name: string; depth: number } = { name: keys[0], depth: 1 };
  for (const [pattern, name] of Object.entries(fieldCodes)) {
    const parts = pattern.split('.');
    const matches = parts.length <= keys.length && parts.every((part, i) => part === '*' || part === keys[i]);
    if (matches && parts.length >= best.depth) best = { name, depth: parts.length };
  }
  return { ...best, field: keys.slice(0, best.depth).join('.') };
}

function describe(issue: z.core.$ZodIssue, input: unknown): IssueDetail[] {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const parent = field ? `${field}.` : '';
    return issue.keys.map((key) => ({ field: `${parent}${key}`, problem: 'unknown', message: 'is not a known field' }));
  }
  const missing =
    (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) ||
    (issue.code === 'invalid_value' && absentFromObject(input, issue.path));
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

/** An enum field left out of an object is missing, not invalid (an enum reports `invalid_value` either way). */
function absentFromObject(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  const parent = valueAt(input, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return false;
  return (parent as Record<PropertyKey, unknown>)[path[path.length - 1]] === undefined;
}
