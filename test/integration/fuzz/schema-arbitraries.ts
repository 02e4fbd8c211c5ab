import fc from 'fast-check';
import type { JsonSchema } from '#lib/openapi/json-schema';

/**
 * fast-check arbitraries built from the OpenAPI document's own JSON Schemas (the subset it
 * uses: `$ref`, `anyOf`/`oneOf`, `enum`/`const`, strings with `format`, `pattern` and
 * lengths, integers and numbers with bounds, arrays, objects with `properties`,
 * `required`, `additionalProperties`, `propertyNames` and `maxProperties`), each value
 * optionally swapped for a hostile one, and hostile mutations of the document's examples.
 * The schema fuzz (routes.test.ts) sends them to every route.
 */

/** Keys JavaScript gives a meaning of its own (both fuzz properties send them). */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

/** Those, keys the storage gives a meaning of its own, and keys that are barely keys. */
const HOSTILE_KEYS = [...PROTOTYPE_KEYS, '', ' ', '\u0000', 'a.b', '$ref'];

/** Those JavaScript or DynamoDB treat specially come up more often. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', '') },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
);

const HOSTILE_NUMBERS = [
  1.2345678901234567e19,
  -1e300,
  1e308,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  1e-131,
  -1e-200,
  5e-324,
  1e-130,
  0,
  -0,
  0.1,
  -1,
  10_001,
];

const HOSTILE_STRINGS = [
  '',
  ' ',
  '.',
  '\u0000',
  '\uFEFF',
  '\u202E',
  '\uD800',
  '\uDFFF\uD800',
  'A\u030A',
  '\u0301',
  '💸',
  'ǅ',
  '李',
  'e\u0301',
  '123-45-6789',
  '021000021',
  'NaN',
  'null',
  '<script>',
  '%00',
  '../..',
  'x'.repeat(256),
  'é'.repeat(2_000),
];

/** `n` levels of objects or lists: past DynamoDB's 32 levels and every depth rule of the service. */
const nested = (n: number, list: boolean): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < n; i++) value = list ? [value] : { a: value };
  return value;
};

/** An object whose keys are own properties, `__proto__` included, as JSON.parse makes them. */
export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(null, true, false),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.double(),
);

/** Anything a caller could send in a JSON value's place: wrong types, odd text, unstorable numbers, hostile keys, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.constantFrom([], {}, [null], [[]]) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 15, max: 40 }), fc.boolean()).map(([n, list]) => nested(n, list)),
  },
  {
    weight: 2,
    arbitrary: fc.array(fc.tuple(hostileKey, hostileScalar), { minLength: 1, maxLength: 3 }).map(objectOf),
  },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 3 }) },
);

export interface SchemaArbitraryOptions {
  /** The schema a `$ref` names. */
  readonly resolve: (ref: string) => JsonSchema;
  /** Weight of a hostile value in place of a node, against 10 for the schema's own; 0 keeps to the schema. */
  readonly hostility: number;
}

/** Strings no longer than this are generated (a maximum beyond it is tried as a hostile value). */
const MAX_GENERATED_CHARS = 60;

/** A value of `schema`, each node swapped for a hostile one with weight `hostility`. */
export function arbitraryOf(schema: JsonSchema, options: SchemaArbitraryOptions, depth = 0): fc.Arbitrary<unknown> {
  const own = ownArbitrary(schema, options, depth);
  if (options.hostility === 0) return own;
  return fc.oneof({ weight: 10, arbitrary: own }, { weight: options.hostility, arbitrary: hostileValue });
}

function ownArbitrary(schema: JsonSchema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return ownArbitrary(options.resolve(schema.$ref), options, depth);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) {
    // Beside `type`, each variant narrows the schema (an email contact: a phone, or an email value).
    const { anyOf: _any, oneOf: _one, ...base } = schema;
    const choices = schema.type === undefined ? variants : variants.map((variant) => narrowed(base, variant));
    return fc.oneof(...choices.map((choice) => ownArbitrary(choice, options, depth)));
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  // Past a few levels, only scalars: the document's request schemas are shallow.
  if (depth > 6) return fc.constantFrom('x', 1, null);
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({
        min: (schema.minimum as number) ?? -1_000_000,
        max: (schema.maximum as number) ?? 1_000_000,
      });
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: schema.minimum as number,
        max: schema.maximum as number,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf((schema.items as JsonSchema) ?? {}, options, depth + 1), {
        minLength: (schema.minItems as number) ?? 0,
        maxLength: Math.min((schema.maxItems as number) ?? 3, 3),
      });
    case 'object':
      return objectArbitrary(schema, options, depth);
    default:
      // `{}`: any JSON value.
      return fc.jsonValue({ maxDepth: 3 });
  }
}

/** `base` with the keywords of `variant` on top, its `properties` merged property by property. */
function narrowed(base: JsonSchema, variant: JsonSchema): JsonSchema {
  const properties = { ...(base.properties as Record<string, JsonSchema>) };
  for (const [name, extra] of Object.entries((variant.properties as Record<string, JsonSchema>) ?? {})) {
    properties[name] = { ...properties[name], ...extra };
  }
  return { ...base, ...variant, properties };
}

type Entry = readonly [string, unknown];

function objectArbitrary(schema: JsonSchema, options: SchemaArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const properties = Object.entries((schema.properties as Record<string, JsonSchema>) ?? {});
  const required = new Set((schema.required as string[]) ?? []);
  const hostile = options.hostility > 0;
  const fields = properties.map(([name, property]) => {
    const value = arbitraryOf(property, options, depth + 1);
    // A required field is left out only when hostile; an optional one often.
    const kept = required.has(name) ? (hostile ? 12 : 1) : 1;
    const left = required.has(name) ? (hostile ? 1 : 0) : 1;
    const present = value.map((v): Entry[] => [[name, v]]);
    return left === 0
      ? present
      : fc.oneof({ weight: kept, arbitrary: present }, { weight: left, arbitrary: fc.constant<Entry[]>([]) });
  });
  const additional = schema.additionalProperties;
  const entries: fc.Arbitrary<Entry[]>[] = [...fields];
  if (additional && typeof additional === 'object') {
    const names = (schema.propertyNames as JsonSchema | undefined) ?? { type: 'string' };
    const key = hostile ? fc.oneof(stringOf(names), hostileKey) : stringOf(names);
    entries.push(
      fc.array(fc.tuple(key, arbitraryOf(additional as JsonSchema, options, depth + 1)), {
        maxLength: Math.min((schema.maxProperties as number) ?? 4, 4) + (hostile ? 2 : 0),
      }),
    );
  }
  if (hostile) {
    // A field the route does not know (`unknown_field`).
    entries.push(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<Entry[]>([]) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.oneof(hostileKey, fc.constant('extra')), hostileValue).map((e): Entry[] => [e]),
        },
      ),
    );
  }
  return fc.tuple(...entries).map((parts) => objectOf(parts.flat()));
}

/** `pattern` as fast-check can follow it: without lookaheads, which are then checked by filtering. */
function patternArbitrary(source: string): fc.Arbitrary<string> | undefined {
  const full = new RegExp(source, 'u');
  const attempts = [source, source.replace(/\(\?=[^)]*\)/g, '')];
  for (const attempt of attempts) {
    try {
      const arbitrary = fc.stringMatching(new RegExp(attempt, 'u'));
      fc.sample(arbitrary, 1);
      return attempt === source ? arbitrary : arbitrary.filter((value) => full.test(value));
    } catch {
      // not a pattern fast-check follows: the next attempt, else plain strings.
    }
  }
  return undefined;
}

const patterns = new Map<string, fc.Arbitrary<string> | undefined>();

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number) ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min((schema.maxLength as number) ?? MAX_GENERATED_CHARS, MAX_GENERATED_CHARS),
  );
  const fitting = (arbitrary: fc.Arbitrary<string>) =>
    arbitrary.filter(
      (value) => [...value].length >= minLength && [...value].length <= ((schema.maxLength as number) ?? Infinity),
    );
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    case 'date':
      return fc
        .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2099-12-31') })
        .map((date) => date.toISOString().slice(0, 10));
    case 'uri':
      return fc.oneof(
        fc.constantFrom('https://hooks.example.com/fuzz', 'https://a.example.com:443/h?x=1', 'http://localhost:1/h'),
        fc.webUrl({ validSchemes: ['https', 'http'] }),
      );
  }
  if (typeof schema.pattern === 'string') {
    if (!patterns.has(schema.pattern)) patterns.set(schema.pattern, patternArbitrary(schema.pattern));
    const pattern = patterns.get(schema.pattern);
    if (pattern) return fitting(pattern);
  }
  if (schema.format === 'email') return fitting(fc.emailAddress());
  return fc.string({ minLength, maxLength, unit: fc.constantFrom(...'abcdefghij ABC-.,’éß0'.split('')) });
}

/** Every node of a JSON value, as the path to it. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = [path];
  if (value === null || typeof value !== 'object') return here;
  const children = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return here.concat(...children.map((key) => pathsOf((value as Record<string, unknown>)[key], [...path, key])));
}

/** A copy of `value` with the node at `path` replaced, or with a key added to the object at `path`. */
function edited(value: unknown, path: (string | number)[], edit: (node: unknown) => unknown): unknown {
  if (path.length === 0) return edit(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? edited(item, rest, edit) : item));
  return objectOf(
    Object.entries(value as Record<string, unknown>).map(
      ([key, item]) => [key, key === head ? edited(item, rest, edit) : item] as const,
    ),
  );
}

/**
 * One of `values` with one hostile edit: a node replaced by a hostile value, or a hostile
 * key (with a hostile or plain value) added to one of its objects, so that the rest of a
 * valid request carries the edit deep into the handler.
 */
export function mutated(values: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(values, fc.nat(), fc.boolean(), hostileKey, fc.oneof(hostileValue, fc.constantFrom('x', 1, {})))
    .map(([value, n, addKey, key, hostile]) => {
      const objects = pathsOf(value).filter((path) => isObject(nodeAt(value, path)));
      if (addKey && objects.length > 0) {
        const path = objects[n % objects.length] as (string | number)[];
        return edited(value, path, (node) =>
          objectOf([...Object.entries(node as Record<string, unknown>), [key, hostile]]),
        );
      }
      const paths = pathsOf(value);
      return edited(value, paths[n % paths.length] as (string | number)[], () => hostile);
    });
}

const isObject = (node: unknown): boolean => node !== null && typeof node === 'object' && !Array.isArray(node);

function nodeAt(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}
