// Lambda event filtering (FilterCriteria), applied by the local stream poller, and by a
// replay of a stream batch given up (lib/stream-replay/), exactly as the event source
// mapping applies it in AWS: each pattern is matched against the record
// in Lambda's event format, a record passes when it matches ANY of the patterns, and a
// record that matches none is dropped before the function is invoked (its sequence number
// still counts as processed). An empty list of patterns lets everything through.
//
// Matching rules (Lambda's, which are EventBridge's):
// - every key of a pattern must match (AND); a nested object descends into the record;
// - at a leaf, the pattern is a list of alternatives (OR): a literal (string, number,
//   boolean, null) matches an equal value, or a content filter matches (see below);
// - a record value that is a list matches when any of its elements does;
// - a field the record lacks matches nothing but `{ "exists": false }`.
// Content filters: prefix, suffix, equals-ignore-case, anything-but (values or
// `{ prefix }`), numeric, exists. Others (cidr, wildcard) are refused, not ignored, so a
// pattern never silently matches differently than in AWS.

export interface FilterPattern {
  readonly [key: string]: FilterPattern | readonly unknown[];
}

export class FilterPatternError extends Error {}

/** Whether a record passes a consumer's filters (any of them). */
export function passesFilters(patterns: readonly FilterPattern[], record: unknown): boolean {
  return patterns.length === 0 || patterns.some((pattern) => matchesPattern(pattern, record));
}

export function matchesPattern(pattern: FilterPattern, value: unknown): boolean {
  return Object.entries(pattern).every(([key, rule]) => {
    const field = isPlainObject(value) ? value[key] : undefined;
    if (Array.isArray(rule)) return matchesAlternatives(rule, field);
    if (isPlainObject(rule)) return matchesPattern(rule as FilterPattern, field);
    throw new FilterPatternError(
      `filter pattern value at "${key}" must be a list or an object, got ${JSON.stringify(rule)}`,
    );
  });
}

function matchesAlternatives(rules: readonly unknown[], field: unknown): boolean {
  const values = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return rules.some((rule) => {
    if (isPlainObject(rule) && 'exists' in rule) {
      return rule.exists === (field !== undefined && !isPlainObject(field));
    }
    return values.some((value) => matchesLeaf(rule, value));
  });
}

function matchesLeaf(rule: unknown, value: unknown): boolean {
  if (rule === null || typeof rule !== 'object') return rule === value;
  const entries = Object.entries(rule);
  if (entries.length !== 1)
    throw new FilterPatternError(`a content filter has exactly one key, got ${JSON.stringify(rule)}`);
  const [[operator, operand]] = entries;
  switch (operator) {
    case 'prefix':
      return typeof value === 'string' && value.startsWith(text(operator, operand));
    case 'suffix':
      return typeof value === 'string' && value.endsWith(text(operator, operand));
    case 'equals-ignore-case':
      return typeof value === 'string' && value.toLowerCase() === text(operator, operand).toLowerCase();
    case 'anything-but':
      return !matchesAnythingButOperand(operand, value);
    case 'numeric':
      return typeof value === 'number' && matchesNumeric(operand, value);
    default:
      throw new FilterPatternError(`content filter "${operator}" is not supported by the local poller`);
  }
}

/** `anything-but` takes one value, a list of values, or a `{ prefix }` filter. */
function matchesAnythingButOperand(operand: unknown, value: unknown): boolean {
  if (Array.isArray(operand)) return operand.includes(value);
  if (isPlainObject(operand)) return matchesLeaf(operand, value);
  return operand === value;
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  '=': (a, b) => a === b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

/** e.g. `[">", 0, "<=", 5]`: every comparison must hold. */
function matchesNumeric(operand: unknown, value: number): boolean {
  if (!Array.isArray(operand) || operand.length === 0 || operand.length % 2 !== 0) {
    throw new FilterPatternError(`numeric filter must be [op, number, …], got ${JSON.stringify(operand)}`);
  }
  for (let i = 0; i < operand.length; i += 2) {
    const compare = COMPARE[String(operand[i])];
    const bound = operand[i + 1];
    if (!compare || typeof bound !== 'number')
      throw new FilterPatternError(`invalid numeric filter ${JSON.stringify(operand)}`);
    if (!compare(value, bound)) return false;
  }
  return true;
}

function text(operator: string, operand: unknown): string {
  if (typeof operand !== 'string')
    throw new FilterPatternError(`${operator} filter needs a string, got ${JSON.stringify(operand)}`);
  return operand;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
