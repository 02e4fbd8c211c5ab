import type * as z from 'zod/mini';
import type { InputSchemas } from '#shared/http/middlewares';
import { fieldCodesOf, type InputSource } from '#shared/validation';
import { type JsonSchema, toJsonSchema } from './json-schema';

/**
 * Every `error_code` the service answers, with what it means (docs/api.md#errors): the
 * codes named in the code, here, and the validation codes derived from each route's own
 * request schemas (`missing_<field>`, `invalid_<field>`, the codes a schema names for a
 * field). A unit test holds this list equal to the codes the source can raise.
 */
export const ERROR_CODES = {
  // Every route (the middleware stack).
  version_missing: 'no `Service-Version` header',
  version_invalid: '`Service-Version` is not `v2022-09-21`',
  unauthorized: 'the token names no client (it has no `client_id` claim)',
  unknown_client: 'the token’s `client_id` acts for no partner: the deployment has no alias record for it',
  too_many_requests: 'the tenant’s request budget is spent: retry after `Retry-After` seconds',
  request_too_large: 'the body is larger than 64 KiB',
  internal_server_error: 'an unexpected failure; retry later',
  service_unavailable:
    'a dependency (the table, a queue, a key) was throttling or out of reach through every retry: retry after `Retry-After` seconds with the same `Idempotency-Key`',
  // The bank provider's notice route (not a partner route: it is not in the partner's OpenAPI document).
  invalid_signature: 'the notice is not signed by the bank provider with the webhook secret, or its signature is stale',
  // Input.
  invalid_json: 'the body is not a JSON object',
  unknown_field: 'the body has a field the route does not know (at any depth)',
  unknown_parameter: 'the query string has a parameter the route does not know',
  invalid_index:
    '`index` is not an integer from 0 to 10,000, or the page starts past 10,000 entries (`index × size`): narrow the list with `start_time`/`end_time` or a filter',
  invalid_cursor:
    '`cursor` is unknown, expired (cursors are kept 24 hours) or of another list, or is given with `index` or a filter: page again from `index` 0',
  // Idempotency (POST, PATCH, DELETE).
  invalid_idempotency_key: '`Idempotency-Key` is empty or longer than 255 characters',
  idempotency_key_in_use: 'the first request with this `Idempotency-Key` is still running',
  idempotency_key_reused: 'the `Idempotency-Key` was used with another body or path',
  // Verify accounts.
  invalid_id: 'the path id of a verify account or an event is not a UUID',
  unknown_id: 'no verify account of this tenant has the id',
  missing_ownership_details: 'an ownership type needs a `person` or a `business`',
  invalid_ownership_details: 'both `person` and `business`, or ownership details on a type without ownership',
  invalid_end_time: '`end_time` is not a date-time, or not after `start_time`',
  invalid_account_id: 'the `id` filter is not one verify account id (a UUID)',
  too_many_verifications: 'this bank account was verified 5 times in the last 24 hours',
  control_not_requested: 'the account’s type has no control',
  control_canceled: 'control was canceled (the verification is not valid, or the code expired)',
  statement_code_not_sent: 'the statement-code credit has not been sent yet',
  incorrect_statement_code: 'the statement code is wrong (`attempts_remaining` says how many tries remain)',
  too_many_attempts: 'three wrong statement codes were submitted',
  concurrent_update: 'the record kept changing meanwhile; retry',
  // Persons.
  unknown_id_person: 'no person of this tenant has the id (a malformed id too)',
  invalid_orum_id: 'the `id` filter is not one person id (a UUID)',
  duplicate_customer_reference_id: 'another person of this tenant has this `customer_reference_id`',
  person_closed: 'the person is closed; a closed person cannot change',
  person_restricted: 'the person is restricted; its identity data cannot change',
  // Screening review (operators).
  not_an_operator:
    'the route is the service’s operators’ alone (`review:screening`), and the token’s client is not registered as one, whatever scopes its token holds',
  invalid_person_id: 'the `person_id` filter is not one person id (a UUID)',
  missing_tenant: '`person_id` without `tenant`: a person is named by both',
  missing_person_id: '`tenant` without `person_id`: a person is named by both',
  unknown_id_screening_hit: 'no screening hit has this id (a malformed id too)',
  screening_hit_decided:
    'the hit was decided already (`details`: its status, who decided it and when); a hit is decided once',
  // Events and webhooks.
  unknown_id_event: 'no event of this tenant has the id (events are kept 30 days)',
  too_many_redeliveries: 'the event was redelivered 5 times recently; one more every 4.8 hours (`Retry-After`)',
  redelivery_rate_exceeded:
    'the tenant sent 10 redeliveries and test events at once; one more each second (`Retry-After`)',
  invoke_rate_exceeded:
    'the tenant sent 10 test events and redeliveries at once (one budget); one more each second (`Retry-After`)',
  insufficient_scope:
    'the token’s scopes do not read events of this kind, so it may not read, redeliver or subscribe a configuration to them: `read:persons` reads `person_*`, `read:verify-accounts` reads `verify_account_updated`, `invoke:webhook` the kinds only a test event has; `subscribe_all` takes all three (`details.event_types`, `details.required_scopes`: the scopes the token lacks)',
  unknown_id_webhook_configuration: 'no webhook configuration of this tenant has the id (a malformed id too)',
  invalid_url:
    'not an absolute `https` URL of at most 2048 characters without user or password, to public addresses on port 443',
  too_many_webhook_configurations: 'the tenant holds 10 webhook configurations already',
  unknown_webhook_secret: 'the tenant has no webhook signing secret yet',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes with what they mean, in the order they are listed. */
export type CodeList = ReadonlyMap<string, string>;

export interface InputErrorCodes {
  readonly badRequest: CodeList;
  /** Codes a schema answers with 404 (a malformed id no record can have). */
  readonly notFound: CodeList;
}

/** What `describe` of #shared/validation calls a source in `missing_<source>`. */
const SOURCES: Record<keyof InputSchemas, InputSource> = { body: 'body', query: 'query', params: 'path' };

/**
 * The codes a route's input validation can answer, derived from its handler's schemas the
 * way #shared/validation names them: `unknown_field` / `unknown_parameter`, then for each
 * top-level field `invalid_<field>` (and `missing_<field>` when it is required), under the
 * name its field codes give it, and for each nested field code its own pair. A field whose
 * every check names its own code (`params: { error_code }`) answers only those.
 * A `superRefine` names its codes at run time: the operations table lists those.
 * `completion` is the schema a partial body is completed to from the stored record (a
 * PATCH's partial address): its missing fields answer as the full body's do.
 */
export function inputErrorCodes(request: Readonly<InputSchemas>, completion?: z.core.$ZodType): InputErrorCodes {
  const badRequest = new Map<string, string>();
  const notFound = new Map<string, string>();
  if (completion) fieldCodes(completion, 'body', badRequest, notFound);
  if (request.body) {
    badRequest.set('invalid_json', ERROR_CODES.invalid_json);
    badRequest.set('unknown_field', ERROR_CODES.unknown_field);
  }
  if (request.query) badRequest.set('unknown_parameter', ERROR_CODES.unknown_parameter);
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = request[part];
    if (schema) fieldCodes(schema, SOURCES[part], badRequest, notFound);
  }
  return { badRequest, notFound };
}

function fieldCodes(
  schema: z.core.$ZodType,
  source: InputSource,
  badRequest: Map<string, string>,
  notFound: Map<string, string>,
) {
  const json = toJsonSchema(schema, 'input');
  const required = new Set((json.required as string[] | undefined) ?? []);
  const named = fieldCodesOf(schema);
  const where = source === 'path' ? 'path parameter' : source === 'query' ? 'query parameter' : 'field';
  for (const [key, field] of Object.entries(shapeOf(schema))) {
    const own = ownCodes(field);
    for (const [code, status] of own) (status === 404 ? notFound : badRequest).set(code, describeOwn(code));
    if (own.size > 0 && failsOnlyWithOwnCodes(field, source)) continue;
    const name = named[key] ?? key;
    if (required.has(key) && source !== 'path') badRequest.set(`missing_${name}`, `the ${where} \`${key}\` is absent`);
    badRequest.set(`invalid_${name}`, `the ${where} \`${key}\` (or a field in it) breaks its rule`);
  }
  // Several fields may share a code (`person.phone_number`, `business.phone_number`): each is named.
  const nested = new Map<string, string[]>();
  for (const [pattern, name] of Object.entries(named)) {
    if (!pattern.includes('.')) continue;
    const field = `\`${pattern.replaceAll('.*', '[]')}\``;
    if (isRequiredAt(json, pattern.split('.'))) add(nested, `missing_${name}`, field);
    add(nested, `invalid_${name}`, field);
  }
  for (const [code, fields] of nested) {
    badRequest.set(code, `${fields.join(' or ')} ${code.startsWith('missing_') ? 'is absent' : 'breaks its rule'}`);
  }
}

function add(fieldsByCode: Map<string, string[]>, code: string, field: string) {
  fieldsByCode.set(code, [...(fieldsByCode.get(code) ?? []), field]);
}

const describeOwn = (code: string): string =>
  (ERROR_CODES as Record<string, string>)[code] ?? `see the field's rule (${code})`;

type Def = Record<string, unknown> & { type: string; checks?: z.core.$ZodCheck[] };
const defOf = (schema: z.core.$ZodType | z.core.$ZodCheck) => schema._zod.def as unknown as Def;

/** The object a schema validates (through pipes into their input, optional and default wrappers). */
function shapeOf(schema: z.core.$ZodType): Record<string, z.core.$ZodType> {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape as Record<string, z.core.$ZodType>;
  if (def.type === 'pipe') return shapeOf(def.in as z.core.$ZodType);
  throw new Error(`request schemas are objects; found ${def.type}`);
}

/** Codes named by the refinements in a schema (`params: { error_code, status? }`), with their status. */
function ownCodes(schema: z.core.$ZodType, found = new Map<string, number>()): Map<string, number> {
  const def = defOf(schema);
  for (const check of def.checks ?? []) {
    const params = defOf(check).params as { error_code?: string; status?: number } | undefined;
    if (params?.error_code) found.set(params.error_code, params.status ?? 400);
  }
  for (const key of ['innerType', 'in', 'out', 'element', 'valueType'] as const) {
    const inner = def[key] as z.core.$ZodType | undefined;
    if (inner) ownCodes(inner, found);
  }
  for (const inner of Object.values((def.shape as Record<string, z.core.$ZodType> | undefined) ?? {}))
    ownCodes(inner, found);
  for (const inner of (def.options as z.core.$ZodType[] | undefined) ?? []) ownCodes(inner, found);
  return found;
}

/**
 * Whether a field fails only through its own-coded refinements: a guard (`z.unknown()`)
 * whose every check names a code, or a string from the path (API Gateway's path
 * parameters are always strings, so the type check cannot fail).
 */
function failsOnlyWithOwnCodes(schema: z.core.$ZodType, source: InputSource): boolean {
  let def = defOf(schema);
  while (['optional', 'default', 'pipe'].includes(def.type)) {
    def = defOf((def.type === 'pipe' ? def.in : def.innerType) as z.core.$ZodType);
  }
  const guard = def.type === 'unknown' || (def.type === 'string' && source === 'path');
  return (
    guard && (def.checks ?? []).every((check) => Boolean((defOf(check).params as { error_code?: string })?.error_code))
  );
}

/** Whether the field at a dotted pattern (`*`: any item or key) is required in its object. */
function isRequiredAt(json: JsonSchema, parts: readonly string[]): boolean {
  let node: JsonSchema | undefined = json;
  for (const [i, part] of parts.entries()) {
    node = nonNull(node);
    if (!node) return false;
    const last = i === parts.length - 1;
    if (part === '*') {
      node = (node.items ?? node.additionalProperties) as JsonSchema | undefined;
      continue;
    }
    if (last) return ((node.required as string[] | undefined) ?? []).includes(part);
    node = (node.properties as Record<string, JsonSchema> | undefined)?.[part];
  }
  return false;
}

/**
 * The branch of a nullable field that is not `null`. A nullable field is an `anyOf` alone;
 * an `anyOf` beside `type` narrows that type (an email contact's value) and is the field itself.
 */
function nonNull(node: JsonSchema | undefined): JsonSchema | undefined {
  const options = node?.anyOf as JsonSchema[] | undefined;
  return options && node?.type === undefined ? options.find((option) => option.type !== 'null') : node;
}

/**
 * Codes raised only by the bank provider's notice route (`POST /bank/notices`, deployed on
 * real rails, no partner's route): explained above, documented in docs/api.md#real-rails,
 * and absent from the partner's OpenAPI document by design.
 */
export const PROVIDER_ONLY_CODES: readonly ErrorCode[] = ['invalid_signature'];
