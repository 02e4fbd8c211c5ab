import * as z from 'zod/mini';

// Free-form JSON a caller sends and the service stores as sent (a person's `metadata`, a
// test event's `data`) must come back out of DynamoDB unchanged. What the document client
// or DynamoDB refuses would fail the write, a 500; what JavaScript drops would be lost
// silently. Each such value is refused up front with the field's own code instead
// (docs/api.md#person-request, docs/api.md#test-event).

/** DynamoDB numbers go through JavaScript numbers here: beyond these they would not round-trip. */
export const MAX_STORABLE_MAGNITUDE = Number.MAX_SAFE_INTEGER;
/** DynamoDB's smallest magnitude other than 0. */
export const MIN_STORABLE_MAGNITUDE = 1e-130;
/**
 * Keys JavaScript gives a meaning of its own: `__proto__` is dropped (or sets the
 * prototype) when an object is built from the value, and `constructor` makes the
 * DynamoDB document client refuse the object.
 */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor'];

/** The rules, as the messages and the OpenAPI document state them. */
export const STORABLE_NUMBER_RULE = 'numbers within ±(2^53 − 1), and 0 or at least 1e-130 in size';
export const STORABLE_KEY_RULE = `keys of 1 character or more, none named ${RESERVED_KEYS.join(' or ')}`;

/** The key rule as JSON Schema's `propertyNames` (for the keys of the object itself; the rule holds at any depth). */
export const STORABLE_KEY_NAMES = { type: 'string', minLength: 1, not: { enum: [...RESERVED_KEYS] } } as const;

export const isStorableNumber = (n: number): boolean =>
  Number.isFinite(n) && Math.abs(n) <= MAX_STORABLE_MAGNITUDE && (n === 0 || Math.abs(n) >= MIN_STORABLE_MAGNITUDE);

export const isStorableKey = (key: string): boolean => key !== '' && !RESERVED_KEYS.includes(key);

/**
 * The first rule `value` breaks, as a message that names the rule and never the value or
 * a key (either may be personal data); undefined when DynamoDB stores it as sent.
 * `maxDepth` bounds the levels of objects and lists, the value's own included. Walks
 * iteratively, so no nesting overflows the stack, and stops at the first problem.
 */
export function storableJsonProblem(value: unknown, maxDepth: number): string | undefined {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    switch (typeof item) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (isStorableNumber(item)) continue;
        return `must hold only ${STORABLE_NUMBER_RULE}`;
      case 'object': {
        if (item === null) continue;
        if (depth + 1 > maxDepth) return `must nest at most ${maxDepth} levels deep`;
        if (Array.isArray(item)) {
          for (const inner of item) pending.push([inner, depth + 1]);
          continue;
        }
        for (const key of Object.keys(item)) {
          if (!isStorableKey(key)) return `must hold only ${STORABLE_KEY_RULE}`;
          pending.push([(item as Record<string, unknown>)[key], depth + 1]);
        }
        continue;
      }
      default:
        return 'must be JSON';
    }
  }
  return undefined;
}

/**
 * A zod guard for a free-form JSON field: put it in front of the field's schema
 * (`z.pipe(storableJson(16), z.record(…))`), so it sees the value as parsed from the body,
 * before a record schema rebuilds the object and a `__proto__` key is lost.
 */
export const storableJson = (maxDepth: number) =>
  z.unknown().check(
    z.superRefine((value, ctx) => {
      const problem = storableJsonProblem(value, maxDepth);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  );
