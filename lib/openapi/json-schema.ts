import * as z from 'zod/mini';

// zod schemas as JSON Schema (2020-12, OpenAPI 3.1's dialect), with zod's own
// `z.toJSONSchema`. Requests are described as they are sent (`io: 'input'`), except query
// parameters, which are described as the handler reads them (`io: 'output'`: an integer
// with its default rather than the digits it arrives as, as Orum documents them);
// responses as the presenters build them (`output`).

export type Io = 'input' | 'output';

export type JsonSchema = Record<string, unknown>;

type ZodAny = z.core.$ZodType;

const typeOf = (schema: ZodAny): string => schema._zod.def.type;

/**
 * A pipe is described by one of its ends, and zod picks the input end for `input` and the
 * output end for `output`. Two ends say nothing: a guard (`z.unknown()` with checks, which
 * only refuses, e.g. `null` for a required field) and a transform. Then the other end
 * describes the value, with the pipe's own metadata on top.
 */
function describingEnd(schema: ZodAny, io: Io): ZodAny | undefined {
  const def = schema._zod.def as z.core.$ZodPipeDef;
  if (def.type !== 'pipe') return undefined;
  if (io === 'input' && ['unknown', 'any'].includes(typeOf(def.in))) return def.out;
  if (io === 'output' && typeOf(def.out) === 'transform') return def.in;
  return undefined;
}

/** The options every conversion uses: the document and the tests that compare it with the handlers' schemas. */
export function jsonSchemaOptions(io: Io): z.core.ToJSONSchemaParams {
  return {
    io,
    // A transform's output has no JSON Schema; `describingEnd` describes it by its input.
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const end = describingEnd(zodSchema, io);
      if (!end) return;
      const target = jsonSchema as JsonSchema;
      for (const key of Object.keys(target)) delete target[key];
      Object.assign(target, toJsonSchema(end, io), z.globalRegistry.get(zodSchema));
    },
  };
}

/** One schema, self-contained (no `$schema`: the document's dialect is OpenAPI 3.1's). */
export function toJsonSchema(schema: ZodAny, io: Io): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, jsonSchemaOptions(io)) as JsonSchema;
  return rest;
}

/**
 * Named schemas, each referring to the others by `#/components/schemas/<name>`; an
 * anonymous schema used by several is inlined in each.
 */
export function toJsonSchemas(named: Readonly<Record<string, ZodAny>>, io: Io): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    ...jsonSchemaOptions(io),
    metadata: z.globalRegistry,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const { __shared: shared, ...out } = schemas;
  if (shared) throw new Error('a schema needs a definition outside the components; name it');
  for (const schema of Object.values(out)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return out;
}
