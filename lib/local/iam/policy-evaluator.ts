import type { PolicyStatementJson } from '#lib/service/tenant-access';

// IAM's evaluation of identity-based policy statements, for the few forms the tenant roles
// use (lib/service/tenant-access.ts): DynamoDB Local enforces no IAM, so the local
// runtime's proxy (./dynamodb-iam-proxy.ts) and the infra tests evaluate the tenant roles'
// statements with this. Pure: statements, the session's tags and one request in, a
// decision out. What it does not model (another condition key or operator, NotAction,
// another policy variable) throws rather than being guessed at: a guess could allow what
// AWS denies.

/** One request as IAM evaluates it. */
export interface PolicyRequest {
  /** `service:Action`, e.g. `dynamodb:GetItem`. */
  readonly action: string;
  /** The resource's ARN: a table's, or `<table ARN>/index/<index>` for an index Query. */
  readonly resource: string;
  /** The request's `dynamodb:LeadingKeys`; empty: the key is absent from the request (a Scan, a ListTables). */
  readonly leadingKeys: readonly string[];
}

/** IAM's answer: some Allow matches and no Deny does; a Deny matches; or nothing allows it. */
export type PolicyDecision = 'allowed' | 'explicitly-denied' | 'implicitly-denied';

/** A statement as a policy document may spell it: one action or resource as a plain string (a template's JSON). */
export type PolicyStatementInput = Omit<PolicyStatementJson, 'Action' | 'Resource'> & {
  readonly Sid?: string;
  readonly Action: string | readonly string[];
  readonly Resource: string | readonly string[];
};

/** The principal's tags (`aws:PrincipalTag/<key>`): a session's tags, e.g. `{ tenant: 'acme' }`. */
export type PrincipalTags = Readonly<Record<string, string>>;

const STATEMENT_FIELDS = new Set(['Sid', 'Effect', 'Action', 'Resource', 'Condition']);
const LEADING_KEYS = 'dynamodb:leadingkeys';
const OPERATOR = /^(?:(ForAllValues|ForAnyValue):)?(StringEquals|StringLike|Null)$/;

/**
 * Evaluates `statements` for one request as IAM does: an explicit Deny wins; else the
 * request is allowed if some Allow statement's Action (exact or wildcard, case-insensitive)
 * and Resource (exact or `*`/`?` wildcard) match it and all its conditions hold; else it is
 * implicitly denied. A condition naming a principal tag the session lacks makes its
 * statement not match. Conditions: `StringEquals`, `StringLike` and `Null`, the first two
 * also under `ForAllValues:`/`ForAnyValue:`, on `dynamodb:LeadingKeys`; anything else throws.
 */
export function evaluatePolicy(
  statements: readonly PolicyStatementInput[],
  request: PolicyRequest,
  tags: PrincipalTags = {},
): PolicyDecision {
  let allowed = false;
  for (const statement of statements) {
    if (!applies(statement, request, tags)) continue;
    if (statement.Effect === 'Deny') return 'explicitly-denied';
    allowed = true;
  }
  return allowed ? 'allowed' : 'implicitly-denied';
}

function applies(statement: PolicyStatementInput, request: PolicyRequest, tags: PrincipalTags): boolean {
  const unknown = Object.keys(statement).filter((field) => !STATEMENT_FIELDS.has(field));
  if (unknown.length > 0) throw new Error(`policy evaluator: statement field ${unknown.join(', ')} is not modelled`);
  if (statement.Effect !== 'Allow' && statement.Effect !== 'Deny') {
    throw new Error(`policy evaluator: Effect must be Allow or Deny, not ${String(statement.Effect)}`);
  }
  if (!listOf(statement.Action).some((pattern) => actionMatches(pattern, request.action))) return false;
  if (!listOf(statement.Resource).some((pattern) => resourceMatches(pattern, request.resource))) return false;
  // Conditions are read only where the statement's action and resource apply, as IAM does:
  // a role's KMS statement with its own condition keys says nothing about a DynamoDB request.
  return Object.entries(statement.Condition ?? {}).every(([operator, block]) =>
    Object.entries(block).every(([key, values]) => conditionHolds(operator, key, listOf(values), request, tags)),
  );
}

const listOf = (value: string | readonly string[]): readonly string[] => {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) {
    throw new Error(`policy evaluator: expected strings, not ${JSON.stringify(value)} (an unresolved token?)`);
  }
  return list;
};

/** A pattern's `*` and `?` as a regular expression over the whole string; the rest literal. */
const wildcard = (pattern: string, flags = ''): RegExp =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    flags,
  );

/** `dynamodb:GetItem`, `dynamodb:Get*`, `*`: IAM compares actions ignoring case. */
const actionMatches = (pattern: string, action: string): boolean => {
  if (pattern.includes('${')) throw new Error(`policy evaluator: a variable in Action (${pattern}) is not modelled`);
  return wildcard(pattern, 'i').test(action);
};

/** The six parts of an ARN; the last (the resource) may hold colons. */
const arnParts = (arn: string): string[] | undefined => {
  const parts = arn.split(':');
  return parts.length < 6 ? undefined : [...parts.slice(0, 5), parts.slice(5).join(':')];
};

/** `*`, or an ARN whose parts each match, case-sensitively, with `*` and `?` inside a part. */
function resourceMatches(pattern: string, resource: string): boolean {
  if (pattern.includes('${')) throw new Error(`policy evaluator: a variable in Resource (${pattern}) is not modelled`);
  if (pattern === '*') return true;
  const [patternParts, resourceParts] = [arnParts(pattern), arnParts(resource)];
  if (!patternParts || !resourceParts) return wildcard(pattern).test(resource);
  return patternParts.every((part, i) => wildcard(part).test(resourceParts[i] as string));
}

/** The request's values of a condition key; undefined when the key is absent. Keys compare ignoring case. */
function contextValues(key: string, request: PolicyRequest): readonly string[] | undefined {
  if (key.toLowerCase() !== LEADING_KEYS) throw new Error(`policy evaluator: condition key ${key} is not modelled`);
  return request.leadingKeys.length > 0 ? request.leadingKeys : undefined;
}

function conditionHolds(
  operator: string,
  key: string,
  policyValues: readonly string[],
  request: PolicyRequest,
  tags: PrincipalTags,
): boolean {
  const parsed = OPERATOR.exec(operator);
  if (!parsed) throw new Error(`policy evaluator: condition operator ${operator} is not modelled`);
  const [, set, test] = parsed;
  const values = contextValues(key, request);
  if (test === 'Null') {
    if (set) throw new Error(`policy evaluator: ${operator} is not an IAM operator`);
    // A key's values are alternatives, for Null as for any operator.
    return policyValues.some((value) => nullHolds(value, values));
  }
  const patterns = policyValues.map((value) => compileValue(value, test === 'StringLike', tags));
  // A principal tag the session lacks: the condition cannot hold, so the statement does not match.
  if (patterns.some((pattern) => pattern === undefined)) return false;
  const matches = (value: string) => patterns.some((pattern) => (pattern as RegExp).test(value));
  if (set === 'ForAllValues') return (values ?? []).every(matches);
  if (set === 'ForAnyValue') return (values ?? []).some(matches);
  if (values === undefined) return false;
  if (values.length > 1) {
    // IAM's answer for a single-valued operator on several values is not one to guess.
    throw new Error(
      `policy evaluator: ${operator} on ${key} with ${values.length} values needs ForAllValues or ForAnyValue`,
    );
  }
  return matches(values[0] as string);
}

/** `Null: "true"` holds when the key is absent, `"false"` when it is present. */
function nullHolds(value: string, values: readonly string[] | undefined): boolean {
  if (value === 'true') return values === undefined;
  if (value === 'false') return values !== undefined;
  throw new Error(`policy evaluator: Null takes "true" or "false", not ${value}`);
}

/**
 * A condition value as a regular expression, its policy variables substituted:
 * `${aws:PrincipalTag/<key>}` by the tag (undefined when the principal lacks it), `${*}`,
 * `${?}` and `${$}` by the character itself. `like`: `*` and `?` are wildcards (StringLike).
 */
function compileValue(value: string, like: boolean, tags: PrincipalTags): RegExp | undefined {
  let source = '';
  for (const part of value.split(/(\$\{[^}]*\}|[*?])/)) {
    if (part === '') continue;
    if (like && (part === '*' || part === '?')) {
      source += part === '*' ? '.*' : '.';
      continue;
    }
    const literal = part.startsWith('${') ? resolveVariable(part, like, tags) : part;
    if (literal === undefined) return undefined;
    source += literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function resolveVariable(variable: string, like: boolean, tags: PrincipalTags): string | undefined {
  const name = variable.slice(2, -1);
  if (name === '*' || name === '?' || name === '$') return name;
  const tag = /^aws:PrincipalTag\/(.+)$/i.exec(name)?.[1];
  if (tag === undefined) throw new Error(`policy evaluator: policy variable ${variable} is not modelled`);
  // Tag keys compare ignoring case, as IAM compares them.
  const resolved = Object.entries(tags).find(([key]) => key.toLowerCase() === tag.toLowerCase())?.[1];
  if (resolved !== undefined && like && /[*?]/.test(resolved)) {
    throw new Error(`policy evaluator: tag ${tag} holds a wildcard (${resolved}); how IAM reads it is not modelled`);
  }
  return resolved;
}
