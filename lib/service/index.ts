import type { DataKeyPurpose } from '#shared/data-key/index';
import { HTTP_STACK_TABLE_ACCESS, IDEMPOTENT_METHODS, LIST_POSITION_TABLE_ACCESS } from '#shared/http/table-access';
import type { QueueId } from '#shared/queue/message-queue';
import { EVENT_LOG } from './event-log';
import { PERSONS } from './persons';
import { SCREENING } from './screening';
import { SCREENING_REVIEW } from './screening-review';
import type {
  ConsumerDefinition,
  QueueSettings,
  RouteDefinition,
  RowTableAccess,
  ServiceArea,
  StreamFilter,
  TableAccess,
} from './types';
import { VERIFY_ACCOUNTS } from './verify-accounts';
import { WEBHOOKS } from './webhooks';

export type * from './types';

/**
 * The service, described once, one file per area, joined here. The CDK stack makes one
 * Lambda function and one HTTP API route per route (local-only routes excepted) and one
 * function per consumer; the local runtime mounts the very same handler modules. Add an
 * endpoint by adding a handler file and a row to its area; add an area by adding a file
 * and an entry to AREAS.
 */
export const AREAS: readonly ServiceArea[] = [
  VERIFY_ACCOUNTS,
  PERSONS,
  SCREENING,
  SCREENING_REVIEW,
  EVENT_LOG,
  WEBHOOKS,
];

/** Every API function's timeout: below API Gateway's 30 s limit; the local runtime enforces the same. */
export const API_FUNCTION_TIMEOUT_SECONDS = 10;

/** Every partner (and operator) route, local-only ones included (the local runtime serves them all). */
export const ROUTES: readonly RouteDefinition[] = AREAS.flatMap((area) => area.routes);

/** The bank provider's notice routes (`noticeRoutes` with `bank`): no JWT authorizer, on real rails only. */
export const NOTICE_ROUTES: readonly RouteDefinition[] = AREAS.flatMap((area) => area.noticeRoutes ?? []).filter(
  (route) => route.bank,
);

/** The identity vendor's notice routes (`noticeRoutes` with `identityVendor`): no JWT authorizer, a real vendor only. */
export const IDENTITY_NOTICE_ROUTES: readonly RouteDefinition[] = AREAS.flatMap(
  (area) => area.noticeRoutes ?? [],
).filter((route) => route.identityVendor);

/** Every route of any kind: what grants, the layout and the key-kinds table are checked over. */
export const EVERY_ROUTE: readonly RouteDefinition[] = [...ROUTES, ...NOTICE_ROUTES, ...IDENTITY_NOTICE_ROUTES];

for (const route of ROUTES) {
  if (route.auth === 'provider-signature') {
    throw new Error(`route "${route.id}" has no JWT authorizer: list it under its area's noticeRoutes, not routes`);
  }
}
for (const route of AREAS.flatMap((area) => area.noticeRoutes ?? [])) {
  const signedBy = route.bank?.secrets.includes('webhookSecret') || route.identityVendor?.secrets.includes('apiSecret');
  if (
    route.auth !== 'provider-signature' ||
    !signedBy ||
    (route.bank && route.identityVendor) ||
    route.scopes.length > 0
  ) {
    throw new Error(
      `notice route "${route.id}" must say auth: 'provider-signature' and either bank: { secrets: [..., 'webhookSecret'] } or identityVendor: { secrets: ['apiSecret'] } (it checks each notice's signature with it), and take no scopes`,
    );
  }
}

/**
 * The routes a stack (or the local runtime) with this bank and identity vendor serves: the
 * partner routes, the bank's notice routes on real rails only, and the identity vendor's
 * with a real vendor only, so a sandbox stack has no unauthorized route at all.
 */
export const servedRoutes = (bankProvider: string, identityVendor = 'sandbox'): RouteDefinition[] => [
  ...ROUTES,
  ...(bankProvider === 'sandbox' ? [] : NOTICE_ROUTES),
  ...(identityVendor === 'sandbox' ? [] : IDENTITY_NOTICE_ROUTES),
];

/** Whether a route is served without the JWT authorizer (the provider's signed notices). */
export const isProviderSigned = (route: Pick<RouteDefinition, 'auth'>): boolean => route.auth === 'provider-signature';

/** The routes deployed to AWS. */
export const deployedRoutes = (routes: readonly RouteDefinition[]): RouteDefinition[] =>
  routes.filter((route) => !route.localOnly);

/** API Gateway route key, e.g. `POST /verify/accounts/{id}/control`. */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string => `${route.method} ${route.path}`;

export const QUEUE_SETTINGS = Object.assign({}, ...AREAS.map((area) => area.queues)) as Record<QueueId, QueueSettings>;

/**
 * The stream router (functions/pipeline/handlers/stream-router.ts): one function on the table
 * stream that hands each change to its area's stream rules. Its filters, queues and field
 * key are the union of what every area's rules declare; its table access is theirs, joined
 * only where they reach the same kinds of key (`joinAccesses`), so no area's actions widen
 * to another's keys.
 */
export const STREAM_ROUTER: ConsumerDefinition = {
  id: 'StreamRouter',
  handler: 'functions/pipeline/handlers/stream-router.ts',
  source: {
    kind: 'table-stream',
    filters: mergeFilters(AREAS.flatMap((area) => area.streamRules?.filters ?? [])),
    batchSize: 50,
    maxRetryAttempts: 10,
    // No parallelizationFactor (one batch per shard at a time): the router performs a
    // batch's records several at once itself, which keeps the local pipeline above 100
    // changes a second; four lanes as well split batches four ways, and the extra
    // invocations and queue requests cost more per verification than they saved in latency.
  },
  // Each area's rules keep their own keys: joined only where the kinds of key are equal.
  table: joinAccesses(AREAS.flatMap((area) => (area.streamRules ? tableAccessOf(area.streamRules) : []))),
  sendsTo: [...new Set(AREAS.flatMap((area) => area.streamRules?.sendsTo ?? []))],
  fieldKey: AREAS.some((area) => area.streamRules?.fieldKey === true),
  timeoutSeconds: 30,
};

export const CONSUMERS: readonly ConsumerDefinition[] = [STREAM_ROUTER, ...AREAS.flatMap((area) => area.consumers)];

for (const row of [...EVERY_ROUTE, ...CONSUMERS]) {
  if (row.bank && !row.bank.secrets.includes('apiKey')) {
    throw new Error(
      `"${row.id}" calls the bank: name 'apiKey' in its bank.secrets (a provider on rails is called with it)`,
    );
  }
}

/**
 * Whether a route honours `Idempotency-Key` (its method is one of IDEMPOTENT_METHODS): the
 * HTTP stack then claims, completes and releases an idempotency record, which its grant,
 * its digest key and its bundle (`ApiFunction`) follow.
 */
export const takesIdempotencyKey = (route: Pick<RouteDefinition, 'method' | 'auth'>): boolean =>
  !isProviderSigned(route) && IDEMPOTENT_METHODS.includes(route.method);

/**
 * A route's table accesses as granted: its handler's own row, then what the HTTP
 * middleware stack asks (the tenant alias, settings and token bucket on every route; the
 * idempotency record where the method takes an `Idempotency-Key`) and a list's positions
 * (`listPositions`); a provider's notice route has only its own (`noticeHandler` reads no
 * tenant). Each confined to the keys of those records. Kept apart rather than joined, so the stack's writes never widen
 * into writes of the route's data (each becomes its own statement).
 */
export function tableAccessOfRoute(route: RouteDefinition): TableAccess[] {
  // A provider's notice has no tenant: no alias, settings or token bucket is read.
  if (isProviderSigned(route)) return [...tableAccessOf(route)];
  return [
    ...tableAccessOf(route),
    ...HTTP_STACK_TABLE_ACCESS.everyRoute,
    ...(takesIdempotencyKey(route) ? HTTP_STACK_TABLE_ACCESS.idempotentRoute : []),
    ...(route.listPositions ? [LIST_POSITION_TABLE_ACCESS] : []),
  ];
}

/**
 * Whether a route's function holds the digest key: its handler digests a secret or PII
 * (`digestKey` in its row), or its method takes an `Idempotency-Key`, whose record the HTTP
 * stack keys and fingerprints with keyed digests.
 */
export const digestKeyOfRoute = (route: RouteDefinition): boolean =>
  route.digestKey === true || takesIdempotencyKey(route);

/**
 * The data keys a function holds (functions/shared/data-key/), from its row: the digest key
 * (a route's with what the HTTP stack adds, `digestKeyOfRoute`) and the field key.
 */
export function dataKeysOf(row: RouteDefinition | ConsumerDefinition): DataKeyPurpose[] {
  const digests = 'method' in row ? digestKeyOfRoute(row) : row.digestKey === true;
  return [...(digests ? (['digest-key'] as const) : []), ...(row.fieldKey ? (['field-key'] as const) : [])];
}

/** A row's own table accesses (its `table`), as a list. */
export function tableAccessOf(row: { readonly table: RowTableAccess }): readonly TableAccess[] {
  return isAccessList(row.table) ? row.table : [row.table];
}

function isAccessList(table: RowTableAccess): table is readonly TableAccess[] {
  return Array.isArray(table);
}

/**
 * Accesses to the same kinds of key (`leadingKeys`, in any order) joined into one, every
 * action and index of any, each once; accesses to other kinds stay apart, since joining
 * them would let each one's actions reach the other's keys. Accesses that ask for nothing
 * are dropped.
 */
export function joinAccesses(accesses: readonly TableAccess[]): TableAccess[] {
  const byKeys = new Map<string, TableAccess[]>();
  for (const access of accesses) {
    if (access.actions.length === 0 && (access.indexes ?? []).length === 0) continue;
    const keys = [...new Set(access.leadingKeys ?? [])].sort().join(' ');
    byKeys.set(keys, [...(byKeys.get(keys) ?? []), access]);
  }
  return [...byKeys.values()].map((group) => {
    const actions = [...new Set(group.flatMap((access) => access.actions))].sort();
    const indexes = [...new Set(group.flatMap((access) => access.indexes ?? []))].sort();
    const leadingKeys = [...new Set(group.flatMap((access) => access.leadingKeys ?? []))].sort();
    return {
      actions,
      ...(indexes.length > 0 && { indexes }),
      ...(leadingKeys.length > 0 && { leadingKeys }),
    };
  });
}

/**
 * Filters with the same event names become one (their entities joined): an event source
 * mapping takes at most 5 filters, and every area adds some.
 */
function mergeFilters(filters: readonly StreamFilter[]): StreamFilter[] {
  const byEvents = new Map<string, { eventName: StreamFilter['eventName']; entity: string[] }>();
  for (const filter of filters) {
    const key = [...filter.eventName].sort().join(',');
    const merged = byEvents.get(key) ?? { eventName: [...filter.eventName].sort(), entity: [] };
    merged.entity.push(...filter.entity.filter((entity) => !merged.entity.includes(entity)));
    byEvents.set(key, merged);
  }
  return [...byEvents.values()];
}

/** The Lambda filter pattern of a stream filter (one FilterCriteria entry). */
export const streamFilterPattern = (filter: StreamFilter) => ({
  eventName: [...filter.eventName],
  dynamodb: { NewImage: { entity: { S: [...filter.entity] } } },
});
