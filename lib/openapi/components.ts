import * as z from 'zod/mini';
import { EVENT_COMPONENTS } from '#functions/event-log/openapi-responses';
import { PERSON_COMPONENTS } from '#functions/persons/openapi-responses';
import { SCREENING_COMPONENTS } from '#functions/screening/openapi-responses';
import { SCREENING_REVIEW_COMPONENTS } from '#functions/screening-review/openapi-responses';
import { VERIFY_ACCOUNT_COMPONENTS } from '#functions/verify-accounts/openapi-responses';
import { WEBHOOK_COMPONENTS } from '#functions/webhooks/openapi-responses';
import { MAX_KEY_LENGTH } from '#shared/http/idempotency';
import { SERVICE_VERSION } from '#shared/http/middlewares';
import { SHARED_COMPONENTS } from '#shared/openapi-responses';
import { RESOURCE_SERVER_ID, SERVICE_SCOPES, type ServiceScope } from '#shared/scopes';
import type { HeaderName } from './contract';
import type { JsonSchema } from './json-schema';

// The named parts of the OpenAPI document (`components`) that operations refer to: the
// response schemas, the headers and parameters every route shares, the security scheme,
// and the answers every route gives word for word.

export const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** Named schemas the answers refer to. */
export const RESPONSE_COMPONENTS = {
  ...SHARED_COMPONENTS,
  GatewayErrorResponse: z
    .strictObject({ message: z.string() })
    .check(z.describe('An answer of API Gateway itself (not the service): its body cannot be changed.')),
  ...VERIFY_ACCOUNT_COMPONENTS,
  ...PERSON_COMPONENTS,
  ...EVENT_COMPONENTS,
  ...WEBHOOK_COMPONENTS,
  ...SCREENING_COMPONENTS,
  ...SCREENING_REVIEW_COMPONENTS,
};

export const PARAMETER_COMPONENTS = {
  ServiceVersion: {
    name: 'Service-Version',
    in: 'header',
    required: true,
    description: `The API version. Missing or empty: \`400 version_missing\`; another value: \`400 version_invalid\`. Orum calls it \`Orum-Version\`.`,
    schema: { type: 'string', enum: [SERVICE_VERSION] },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Scoped to the tenant and the route: the same key and request within 24 hours answer the first response again (`Idempotent-Replayed: true`); another request with it `422 idempotency_key_reused`; while the first runs `409 idempotency_key_in_use` (docs/api.md#idempotency).',
    schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
  },
};

const SCOPE_DESCRIPTIONS: Record<ServiceScope, string> = {
  'read:verify-accounts': 'Read verify accounts and their events (`verify_account_updated`)',
  'write:verify-accounts': 'Start verifications, submit statement codes, re-check debits',
  'read:persons': 'Read persons and their events (`person_*`)',
  'write:persons': 'Create, change and close persons',
  'read:webhook-configurations': 'Read webhook configurations',
  'write:webhook-configurations': 'Create, replace and delete webhook configurations',
  'read:webhook-secret': 'Read the webhook signing secret',
  'write:webhook-secret': 'Create or rotate the webhook signing secret',
  'invoke:webhook': 'Send test events, redeliver events, read the test events of kinds the service never emits',
  'review:screening':
    'The service’s own operators only, never a partner: list every tenant’s screening hits and decide them',
};

export const SECURITY_SCHEMES = {
  oauth2: {
    type: 'oauth2',
    description: `OAuth 2.0 client credentials: one client per partner, holding the scopes it bought (and operator clients of the service itself, holding \`review:screening\`). In AWS the token endpoint is the Cognito domain’s \`/oauth2/token\` (the stack output \`TokenUrl\`), and Cognito names each scope \`${RESOURCE_SERVER_ID}/<scope>\` (ask for \`${RESOURCE_SERVER_ID}/read:persons\`); the local runtime serves a Cognito-compatible token endpoint at \`/oauth2/token\` (and \`npm run token\` prints a token). A token must carry one of the route’s scopes (its \`security\` lists one requirement per scope), else \`403\`.`,
    flows: {
      clientCredentials: {
        tokenUrl: '/oauth2/token',
        scopes: Object.fromEntries(SERVICE_SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])),
      },
    },
  },
};

/** Headers of the answers; `required`: whenever the answer is given (a header's `$ref` cannot add it). */
export const HEADER_COMPONENTS: Record<string, JsonSchema> = {
  RequestId: {
    description: 'API Gateway’s request id, also `request_id` in error bodies: quote it when asking for support.',
    required: true,
    schema: { type: 'string' },
  },
  RequestIdOfService: {
    description: 'The request id, when the service answers (API Gateway’s own answers carry only `apigw-requestid`).',
    required: false,
    schema: { type: 'string' },
  },
  NextLink: {
    description:
      'RFC 8288: on a full page, the next page of the same list by cursor, `</path?cursor=…&size=…>; rel="next"`, ' +
      'a path relative to the API’s base URL. No link: the list ends here.',
    required: false,
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
  RetryAfter: {
    description: 'Whole seconds to wait before retrying (with `too_many_requests`).',
    required: false,
    schema: { type: 'integer', minimum: 1 },
  },
  CacheControl: {
    description: 'The answer holds a secret: never cached, never kept for a replay.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  IdempotentReplayed: {
    description: 'The first response to this `Idempotency-Key`, answered again.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  WwwAuthenticate: {
    description: 'A hint for people (RFC 6750); clients must not parse it.',
    required: false,
    schema: { type: 'string' },
  },
};

/** Each header's name on the wire and its component, by whether it is always there. */
export const HEADER_REFS: Record<HeaderName, { name: string; always?: string; sometimes?: string }> = {
  'x-request-id': { name: 'x-request-id', always: 'RequestId', sometimes: 'RequestIdOfService' },
  'retry-after': { name: 'Retry-After', sometimes: 'RetryAfter' },
  link: { name: 'Link', sometimes: 'NextLink' },
  'cache-control': { name: 'Cache-Control', always: 'CacheControl' },
  'idempotent-replayed': { name: 'Idempotent-Replayed', sometimes: 'IdempotentReplayed' },
  'www-authenticate': { name: 'WWW-Authenticate', sometimes: 'WwwAuthenticate' },
};

/**
 * Answers every route shares word for word (API Gateway's, the rate limit's, …) are
 * components, referred to from each operation; a route whose answer differs keeps its own.
 */
const SHARED_RESPONSES: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  413: 'PayloadTooLarge',
  422: 'IdempotencyKeyReused',
  429: 'TooManyRequests',
  431: 'HeadersTooLarge',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

export function shareResponses(paths: Record<string, Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const operations = Object.values(paths).flatMap((methods) => Object.values(methods));
  const shared: Record<string, JsonSchema> = {};
  for (const [status, name] of Object.entries(SHARED_RESPONSES)) {
    const answers = operations.map((operation) => (operation.responses as Record<string, JsonSchema>)[status]);
    const counts = new Map<string, number>();
    for (const answer of answers)
      if (answer) counts.set(JSON.stringify(answer), (counts.get(JSON.stringify(answer)) ?? 0) + 1);
    const [common, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (!common || (count ?? 0) < 2) continue;
    shared[name] = JSON.parse(common);
    for (const operation of operations) {
      const responses = operation.responses as Record<string, JsonSchema>;
      if (responses[status] && JSON.stringify(responses[status]) === common) responses[status] = ref('responses', name);
    }
  }
  return shared;
}
