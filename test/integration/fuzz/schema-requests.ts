import fc from 'fast-check';
import type { OpenApiDocument } from '#lib/openapi/document';
import type { JsonSchema } from '#lib/openapi/json-schema';
import type { RouteDefinition } from '#lib/service/index';
import { SERVICE_VERSION } from '../harness';
import { arbitraryOf, hostileValue, mutated } from './schema-arbitraries';

/**
 * Requests built from the OpenAPI document's own description of each route: its path and
 * query parameters, its headers and its request body's schema and examples
 * (schema-arbitraries.ts), for the schema fuzz of routes.test.ts.
 */

export interface SchemaRequest {
  readonly id: string;
  readonly query: string;
  readonly headers: Record<string, string>;
  /** A JSON value (sent as JSON text), or undefined for no body. */
  readonly body: unknown;
}

export const encodable = (value: string) => {
  try {
    return encodeURIComponent(value).length > 0;
  } catch {
    return false;
  }
};

const printable = (max: number, min = 0) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{${min},${max}}$`));

/** A value as text in a path or query string (JSON for anything but a string: an own `toString` key breaks String()). */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** Which of the ids given to `schemaRequests` a path's `{id}` names: an account, a person, a configuration, an event. */
const RECORD_OF_PATH: readonly (readonly [string, number])[] = [
  ['/verify/accounts/', 0],
  ['/persons/', 1],
  ['/webhooks/configurations/', 2],
  ['/events/', 3],
];

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly schema: JsonSchema;
}

/**
 * The requests of each route of `document`. `existing` holds the ids of records that exist
 * (an account, a person, a webhook configuration, an event), so path ids reach the
 * handlers' deeper branches too.
 */
export function schemaRequests(
  document: OpenApiDocument,
  existing: readonly string[],
): (route: RouteDefinition) => fc.Arbitrary<SchemaRequest> {
  /** A `$ref` within the document, followed. */
  const resolve = (ref: string): JsonSchema => {
    const [, section, name] = ref.replace('#/', '').split('/');
    return (document.components as Record<string, Record<string, JsonSchema>>)[section as string]?.[
      name as string
    ] as JsonSchema;
  };
  const resolved = (node: JsonSchema): JsonSchema =>
    typeof node.$ref === 'string' ? resolved(resolve(node.$ref)) : node;
  const strict = { resolve, hostility: 0 };
  const sprinkled = { resolve, hostility: 1 };

  /** The examples of every request body of the document, by the schema they illustrate. */
  const examplesOf = (schemaRef: string): unknown[] =>
    Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => {
        const content = (operation.requestBody as JsonSchema | undefined)?.content as
          | Record<string, { schema: JsonSchema; examples?: Record<string, { value: unknown }> }>
          | undefined;
        const json = content?.['application/json'];
        return json?.schema.$ref === schemaRef
          ? Object.values(json.examples ?? {}).map((example) => example.value)
          : [];
      }),
    );

  /** A query value as a caller writes it: the schema's (one entry per item of a list), or, when `hostile`, anything. */
  const queryValues = (schema: JsonSchema, hostile: boolean): fc.Arbitrary<string[]> => {
    const own =
      schema.type === 'array'
        ? fc.array(arbitraryOf(schema.items as JsonSchema, strict), { minLength: 1, maxLength: 3 })
        : arbitraryOf(schema, strict).map((value) => [value]);
    const anything = fc.array(hostileValue, { minLength: 1, maxLength: 2 });
    const values = hostile ? fc.oneof({ weight: 4, arbitrary: own }, { weight: 1, arbitrary: anything }) : own;
    return values.map((list) => list.map(textOf));
  };

  return (route) => {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()] as JsonSchema;
    const parameters = ((operation.parameters as JsonSchema[]) ?? []).map((p) => resolved(p) as unknown as Parameter);
    const ofKind = (kind: Parameter['in']) => parameters.filter((p) => p.in === kind);

    // A path id is never empty and never '.' or '..' (path navigation, resolved before any route is chosen).
    const pathId = (arbitrary: fc.Arbitrary<unknown>) =>
      arbitrary.map(textOf).filter((v) => encodable(v) && v !== '.' && v !== '..');
    const own = RECORD_OF_PATH.find(([prefix]) => route.path.startsWith(prefix))?.[1] ?? 0;
    const pathIds = fc.oneof(
      { weight: 3, arbitrary: fc.constant(existing[own] as string) },
      { weight: 1, arbitrary: fc.constantFrom(0, 1, 2, 3).map((index) => existing[index] as string) },
      { weight: 2, arbitrary: pathId(arbitraryOf(ofKind('path')[0]?.schema ?? { type: 'string' }, strict)) },
      { weight: 1, arbitrary: pathId(hostileValue) },
    );
    // A few parameters with the schema's values, or more of them with anything in their place.
    const queryOf = (hostile: boolean) =>
      fc
        .tuple(
          ...ofKind('query').map((p) =>
            fc.oneof(
              { weight: hostile ? 1 : 3, arbitrary: fc.constant<[string, string][]>([]) },
              {
                weight: 1,
                arbitrary: queryValues(p.schema, hostile).map((values) =>
                  values.map((v): [string, string] => [p.name, v]),
                ),
              },
            ),
          ),
        )
        .map((pairs) => new URLSearchParams(pairs.flat()).toString());
    const query = fc.oneof(queryOf(false), queryOf(true));
    // Header values are bytes: what an HTTP client can send is printable ASCII.
    const idempotencyKey = ofKind('header').find((p) => p.name === 'Idempotency-Key')?.schema;
    const headers = fc.record(
      {
        'service-version': fc.oneof(
          { weight: 12, arbitrary: fc.constant(SERVICE_VERSION) },
          fc.constantFrom('', 'v2022-09-22', 'V2022-09-21'),
        ),
        'idempotency-key': fc.oneof(
          printable(40, (idempotencyKey?.minLength as number) ?? 1),
          fc.constantFrom('', 'k'.repeat(256)),
        ),
      },
      { requiredKeys: ['service-version'] },
    );

    const bodySchema = (
      (operation.requestBody as JsonSchema | undefined)?.content as Record<string, { schema: JsonSchema }> | undefined
    )?.['application/json']?.schema;
    const examples = bodySchema?.$ref ? examplesOf(bodySchema.$ref as string) : [];
    const valid =
      examples.length > 0
        ? fc.oneof(arbitraryOf(bodySchema ?? {}, strict), fc.constantFrom(...examples))
        : arbitraryOf(bodySchema ?? {}, strict);
    const body: fc.Arbitrary<unknown> = bodySchema
      ? fc.oneof(
          { weight: 2, arbitrary: valid },
          { weight: 2, arbitrary: arbitraryOf(bodySchema, sprinkled) },
          { weight: 5, arbitrary: mutated(valid) },
        )
      : route.method === 'GET'
        ? fc.constant(undefined) // fetch sends no GET body; the raw property above does
        : fc.option(hostileValue, { nil: undefined, freq: 4 });
    return fc.record({ id: pathIds, query, headers, body });
  };
}
