import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from '@redocly/openapi-core';
import * as z from 'zod';

// One valid request per operation of Orum's published OpenAPI documents
// (test/fixtures/orum/, unchanged), built from the operation's own schemas, so a request a
// client written for Orum sends can be sent here. The rules, applied to every operation:
//
// - a value is the schema's `example` when it has one that the schema accepts (Orum's
//   examples are not all valid: `account_number`'s is a YAML number), else the first
//   `enum` value, else one made from the type: an object holds its required properties
//   and the optional ones Orum gives an example for (`person`, `business`, `sender_name`),
//   a list one item (or `minItems`), a number its `minimum` (or 0), a boolean `true`, a
//   string its `format` (uuid, date-time, email), a string matching its `pattern`, or
//   `a` repeated `minLength` times; a `oneOf` takes its first alternative;
// - a pattern is followed literally: the first alternative, each repetition at its
//   minimum (at least once), every optional piece present (so `^(?:\d-?){3,16}\d$`
//   gives `0-0-0-0`), a class's first lower-case letter, else upper-case, else digit;
// - `$ref`s are resolved within their document and `allOf` parts merged;
// - the request, with what the caller sets on top (ids, values the schema cannot know),
//   is checked against Orum's schema before it is sent (zod's JSON Schema reader, in
//   OpenAPI 3.0 mode): a request Orum's schema refuses fails the test, not the service.

export type JsonSchema = { [key: string]: any };

export interface OrumOperation {
  readonly operationId: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Orum's path, with `{id}` where the path has one. */
  readonly path: string;
  readonly scopes: readonly string[];
  /** Required header parameters by Orum's name (`Orum-Version`), with their values. */
  readonly headers: Readonly<Record<string, string>>;
  /** Required query parameters (none of Orum's operations has one today). */
  readonly query: Readonly<Record<string, string>>;
  /** The request body's schema, `$ref`s resolved; undefined when the operation takes none. */
  readonly bodySchema?: JsonSchema;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of every document in `dir`. */
export function orumOperations(dir: string): OrumOperation[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yml'))
    .sort()
    .flatMap((file) => operationsOf(parseYaml(readFileSync(join(dir, file), 'utf8')) as JsonSchema));
}

function operationsOf(document: JsonSchema): OrumOperation[] {
  const resolved = resolveRefs(document, document) as JsonSchema;
  return Object.entries(resolved.paths as Record<string, JsonSchema>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as JsonSchema;
      const parameters = (operation.parameters ?? []) as JsonSchema[];
      const required = (where: string) =>
        Object.fromEntries(
          parameters
            .filter((p) => p.in === where && p.required)
            .map((p) => [p.name as string, String(sampleOf(p.schema))]),
        );
      return {
        operationId: operation.operationId as string,
        method: method.toUpperCase() as OrumOperation['method'],
        path,
        scopes: ((operation.security ?? []) as JsonSchema[]).flatMap((requirement) => requirement.oauth2 ?? []),
        headers: required('header'),
        query: required('query'),
        bodySchema: operation.requestBody?.content?.['application/json']?.schema,
      };
    }),
  );
}

/** The body Orum's schema describes, with `over` set on top, checked against the schema. */
export function orumBody(operation: OrumOperation, over: Record<string, unknown> = {}): unknown {
  if (!operation.bodySchema) throw new Error(`${operation.operationId} takes no body`);
  const body = { ...(sampleOf(operation.bodySchema) as object), ...over };
  const checked = acceptorOf(operation.bodySchema).safeParse(body);
  if (!checked.success) {
    throw new Error(
      `the request built for ${operation.operationId} is not one Orum's schema accepts: ${z.prettifyError(checked.error)}`,
    );
  }
  return body;
}

/** A value the schema accepts, by the rules above. */
export function sampleOf(schema: JsonSchema): unknown {
  const s = merged(schema);
  if (s.oneOf) return sampleOf(s.oneOf[0]);
  if (s.example !== undefined && acceptorOf(s).safeParse(s.example).success) return s.example;
  if (s.enum) return s.enum[0];
  const type = s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set<string>(s.required ?? []);
      const keys = [
        ...required,
        ...Object.keys(properties).filter((key) => !required.has(key) && merged(properties[key]).example !== undefined),
      ];
      return Object.fromEntries(keys.map((key) => [key, sampleOf(properties[key] ?? {})]));
    }
    case 'array':
      return Array.from({ length: Math.max(s.minItems ?? 1, 1) }, () => sampleOf(s.items ?? {}));
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return true;
    default:
      return stringOf(s);
  }
}

function stringOf(s: JsonSchema): string {
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'date-time') return new Date().toISOString();
  if (s.format === 'email') return 'jane.doe@example.com';
  if (s.pattern) return fromPattern(s.pattern);
  return 'a'.repeat(Math.max(s.minLength ?? 1, 1));
}

const acceptors = new WeakMap<JsonSchema, z.ZodType>();
function acceptorOf(schema: JsonSchema): z.ZodType {
  let acceptor = acceptors.get(schema);
  if (!acceptor) {
    acceptor = z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema, { defaultTarget: 'openapi-3.0' });
    acceptors.set(schema, acceptor);
  }
  return acceptor;
}

/** The schema with its `allOf` parts merged in: properties joined, `required` united, other keywords kept. */
function merged(schema: JsonSchema): JsonSchema {
  if (!schema.allOf) return schema;
  const { allOf, ...own } = schema;
  const result: JsonSchema = {};
  for (const part of [...(allOf as JsonSchema[]).map(merged), own]) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') result.properties = { ...result.properties, ...value };
      else if (key === 'required') result.required = [...new Set([...(result.required ?? []), ...value])];
      else result[key] = value;
    }
  }
  return result;
}

/** The document with every local `$ref` replaced by what it points to (Orum's schemas do not recurse). */
function resolveRefs(node: unknown, document: JsonSchema, trail: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => resolveRefs(item, document, trail));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as JsonSchema).$ref as string | undefined;
  if (ref) {
    if (trail.includes(ref)) throw new Error(`${ref} refers to itself`);
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<JsonSchema>((at, key) => at[key], document);
    return resolveRefs(target, document, [...trail, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(value, document, trail)]));
}

/**
 * A string the pattern matches, by the rules above. Handles what Orum's patterns use:
 * anchors, literals and escapes, classes with ranges, groups (capturing or not) with
 * alternatives, and the quantifiers `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`.
 */
export function fromPattern(pattern: string): string {
  let at = 0;
  const alternatives = (): string => {
    const first = sequence();
    while (pattern[at] === '|') {
      at++;
      sequence();
    }
    return first;
  };
  const sequence = (): string => {
    let out = '';
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const piece = atom();
      const { min, max } = quantifier();
      const count = min === 0 && max === 1 ? 1 : Math.max(min, 1);
      out += piece.repeat(count);
    }
    return out;
  };
  const atom = (): string => {
    const c = pattern[at++];
    if (c === '^' || c === '$') return '';
    if (c === '(') {
      if (pattern.startsWith('?:', at)) at += 2;
      const text = alternatives();
      if (pattern[at++] !== ')') throw new Error(`unclosed group in ${pattern}`);
      return text;
    }
    if (c === '[') return choose(charClass());
    if (c === '\\') return escaped(pattern[at++]);
    if (c === '.') return 'a';
    return c;
  };
  const charClass = (): string[] => {
    const members: string[] = [];
    if (pattern[at] === '^') throw new Error(`negated classes are not handled: ${pattern}`);
    while (pattern[at] !== ']') {
      if (at >= pattern.length) throw new Error(`unclosed class in ${pattern}`);
      const isEscape = pattern[at] === '\\';
      const from = isEscape ? escapedClass(pattern[at + 1]) : [pattern[at]];
      at += isEscape ? 2 : 1;
      if (pattern[at] === '-' && pattern[at + 1] !== ']' && from.length === 1) {
        const to = pattern[at + 1] === '\\' ? pattern[at + 2] : pattern[at + 1];
        at += pattern[at + 1] === '\\' ? 3 : 2;
        for (let code = from[0].charCodeAt(0); code <= to.charCodeAt(0); code++)
          members.push(String.fromCharCode(code));
      } else members.push(...from);
    }
    at++;
    return members;
  };
  const quantifier = (): { min: number; max: number } => {
    const short = SHORT_QUANTIFIERS[pattern[at]];
    if (short) {
      at++;
      return short;
    }
    const counted = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (!counted) return { min: 1, max: 1 };
    at += counted[0].length;
    const min = Number(counted[1]);
    const max = counted[2] === undefined ? min : counted[3] ? Number(counted[3]) : Number.POSITIVE_INFINITY;
    return { min, max };
  };
  const text = alternatives();
  if (at !== pattern.length) throw new Error(`unbalanced ) in ${pattern}`);
  return text;
}

const SHORT_QUANTIFIERS: Readonly<Record<string, { min: number; max: number }>> = {
  '?': { min: 0, max: 1 },
  '*': { min: 0, max: Number.POSITIVE_INFINITY },
  '+': { min: 1, max: Number.POSITIVE_INFINITY },
};
const DIGITS = [...'0123456789'];
function escapedClass(c: string): string[] {
  if (c === 'd') return DIGITS;
  if (c === 'w') return [...'abcdefghijklmnopqrstuvwxyz', ...DIGITS, '_'];
  if (c === 's') return [' '];
  return [c];
}
const escaped = (c: string): string => choose(escapedClass(c));

function choose(members: readonly string[]): string {
  return (
    members.find((m) => m >= 'a' && m <= 'z') ??
    members.find((m) => m >= 'A' && m <= 'Z') ??
    members.find((m) => m >= '0' && m <= '9') ??
    members[0]
  );
}
