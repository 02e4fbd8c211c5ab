import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ConsumerDefinition, RouteDefinition, TableAccess } from '#lib/service/index';
import { CONSUMERS, EVERY_ROUTE, routeKey, tableAccessOf, tableAccessOfRoute } from '#lib/service/index';
import { splitTenantAccess } from '#lib/service/tenant-access';
import { type DocumentCommand, requestsOf, type TableRequest } from '#shared/db/command-requests';
import { KEY_PREFIX, type KeyKind, keyPattern } from '#shared/db/key-kinds';
import { asksForTenantRecords } from '#shared/db/tenant-access/document-client';
import { type TenantScope, tenantScope } from '#shared/tenant-scope';
import { tenantCrossings } from './tenant-check';

// The drift test of the table grants (issue 22): every DynamoDB command a handler sends
// in a unit test is noted with the function it ran in, and checked against what that
// function's row grants (a route's with the HTTP stack's share, `tableAccessOfRoute`).
// DynamoDB Local has no IAM, so without this a repository that starts sending a command
// its row does not name passes every test and meets AccessDenied in AWS.

/** A function under test: the row whose grant its commands must stay within. */
export interface FunctionUnderTest {
  readonly id: string;
  readonly grant: readonly TableAccess[];
  /** The row's own accesses (`table`); the rest of `grant` is shared with other rows. */
  readonly own: readonly TableAccess[];
  /** The row itself, for what else it grants (queues, cipher purposes, email). */
  readonly row: RouteDefinition | ConsumerDefinition;
}

export interface RecordedCommand {
  /** The function it was sent from; undefined: from no known function. */
  readonly sender: FunctionUnderTest | undefined;
  readonly command: string;
  readonly requests: readonly TableRequest[];
  /** The tenant the code acted for when it sent the command (#shared/tenant-scope), as it was then. */
  readonly scope?: Readonly<TenantScope>;
}

const running = new AsyncLocalStorage<FunctionUnderTest>();
const recorded: RecordedCommand[] = [];

/** IAM `StringLike`: `*` any run of characters, `?` one. */
const likePattern = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/**
 * Whether one access grants one request: its action (a Query of an index: the index, which
 * no key confines, as the stack grants it), on a partition key of a kind it names.
 */
function grants(access: TableAccess, request: TableRequest): boolean {
  if (request.index !== undefined) return (access.indexes ?? []).some((index) => index === request.index);
  if (!access.actions.some((action) => action === request.action)) return false;
  if (!access.leadingKeys) return true;
  return (
    request.pk !== undefined && access.leadingKeys.some((kind) => likePattern(keyPattern(kind)).test(request.pk ?? ''))
  );
}

/** The kind of record a partition key belongs to (`KEY_PREFIX`), if any. */
const kindOf = (pk: string): KeyKind | undefined =>
  (Object.keys(KEY_PREFIX) as KeyKind[]).find((kind) => likePattern(keyPattern(kind)).test(pk));

/** The requests of one command that no access of a grant covers. */
export const ungranted = (grant: readonly TableAccess[], requests: readonly TableRequest[]): TableRequest[] =>
  requests.filter((request) => !grant.some((access) => grants(access, request)));

/**
 * Who answers for one access of a function's grant: the function's own row (its id), or,
 * for an access many rows share (the HTTP stack's, the list positions'), the code that
 * sends it for all of them, so the reverse check asks that some test of any of them uses it.
 */
const ownerOf = (fn: FunctionUnderTest, access: TableAccess): string => (fn.own.includes(access) ? fn.id : 'shared');

/** One granted permission as the reverse check names it: owner, action (on its key patterns) or index. */
const itemUse = (owner: string, action: string, access: TableAccess): string =>
  `${owner}: ${action}${access.leadingKeys ? ` on ${access.leadingKeys.map(keyPattern).join(' | ')}` : ''}`;
const indexUse = (owner: string, index: string): string => `${owner}: Query on index ${index}`;

/** Every permission a function's grant gives, as `itemUse` and `indexUse` name them. */
export const grantedUses = (fn: FunctionUnderTest): string[] =>
  fn.grant.flatMap((access) => [
    ...access.actions.map((action) => itemUse(ownerOf(fn, access), action, access)),
    ...(access.indexes ?? []).map((index) => indexUse(ownerOf(fn, access), index)),
  ]);

/** The permissions of a function's grant that one request uses (every access that grants it). */
export const usesOf = (fn: FunctionUnderTest, request: TableRequest): string[] =>
  fn.grant
    .filter((access) => grants(access, request))
    .map((access) =>
      request.index
        ? indexUse(ownerOf(fn, access), request.index)
        : itemUse(ownerOf(fn, access), request.action, access),
    );

/**
 * The document client every handler test runs on: each command is noted, with the function
 * it was sent from, before the mock answers it.
 */
export function recordingClient(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
  Object.assign(client, {
    send: (command: DocumentCommand, ...rest: unknown[]) => {
      recorded.push({ sender: running.getStore(), ...noted(command) });
      // The prototype's send at call time: the mock replaces it on `ddb.reset()`.
      return Object.getPrototypeOf(client).send.call(client, command, ...rest);
    },
  });
  return client;
}

/** What is noted of a command when it is sent: its name, what it asks, and the tenant its code acts for then. */
function noted(command: DocumentCommand): Omit<RecordedCommand, 'sender'> {
  const scope = tenantScope();
  return {
    command: command.constructor.name,
    requests: requestsOf(command),
    ...(scope && { scope: { tenant: scope.tenant, of: scope.of } }),
  };
}

/** The row of lib/service with this id (a route's or a consumer's), as a function under test. */
export function rowFunction(id: string): FunctionUnderTest | undefined {
  const route = EVERY_ROUTE.find((candidate) => candidate.id === id);
  if (route) return { id, grant: tableAccessOfRoute(route), own: tableAccessOf(route), row: route };
  const consumer = CONSUMERS.find((candidate) => candidate.id === id);
  return consumer && { id, grant: tableAccessOf(consumer), own: tableAccessOf(consumer), row: consumer };
}

/** Every function of the service: each route (the provider's notice routes too) and consumer row. */
export const allRowFunctions = (): FunctionUnderTest[] =>
  [...EVERY_ROUTE, ...CONSUMERS].map(({ id }) => rowFunction(id) as FunctionUnderTest);

/** The function the current code runs in (`runAsRow`), if any. */
export const currentFunction = (): FunctionUnderTest | undefined => running.getStore();

/** Runs `invocation` as the row with this id; as no function when lib/service has none (a fixture). */
export function runAsRow<T>(id: string, invocation: () => T): T {
  const fn = rowFunction(id);
  return fn ? running.run(fn, invocation) : invocation();
}

/**
 * Runs an HTTP invocation as the route its event names (`routeKey`), so its commands are
 * checked against that route's grant. A fixture route (none of the service's) runs as no
 * function: a table command it sends in a handler test fails as unattributed.
 */
export function asRoute<T>(eventRouteKey: string, invocation: () => Promise<T>): Promise<T> {
  const route = EVERY_ROUTE.find((candidate) => routeKey(candidate) === eventRouteKey);
  return route ? runAsRow(route.id, invocation) : invocation();
}

/**
 * A handler that runs as its row (a route's or a consumer's `id` in lib/service): call
 * this instead of the imported handler, so every command it sends is checked against that
 * function's grant. (`invoke` finds a route's row from its event.)
 */
export function functionUnderTest<A extends unknown[], R>(
  id: string,
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  if (!rowFunction(id)) throw new Error(`no route or consumer ${id} in lib/service`);
  return (...args) => runAsRow(id, () => handler(...args));
}

/**
 * Notes, from now on in this process, every command any document client sends while a
 * row's function runs (`runAsRow`): the integration tests' hook, where the local runtime
 * runs each handler through `RecordingInvoker`. Commands outside a function (a test's own
 * arrange and assert code, the runtime loading screening lists) are not the service's and
 * are not noted.
 */
export function recordEveryDocumentClient(): void {
  const prototype = DynamoDBDocumentClient.prototype as unknown as { send: (...args: any[]) => any };
  if (Object.hasOwn(prototype, 'send')) return;
  const inherited = prototype.send;
  prototype.send = function send(this: unknown, command: DocumentCommand, ...rest: unknown[]) {
    const sender = running.getStore();
    if (sender) recorded.push({ sender, ...noted(command) });
    return inherited.call(this, command, ...rest);
  };
}

/** The permissions the commands checked so far in this process used (`checkRecorded`), as `usesOf` names them. */
export const usedGrants = new Set<string>();

/**
 * Checks the commands noted since the last call (`assertWithinGrants`), after noting the
 * permissions they used for the reverse check (test/support/grant-audit.ts).
 */
export function checkRecorded(): void {
  const commands = takeRecorded();
  for (const { sender, requests } of commands) {
    if (!sender) continue;
    for (const request of requests) for (const use of usesOf(sender, request)) usedGrants.add(use);
  }
  const tenants = tenantCrossings(commands);
  for (const use of tenants.crossed) usedGrants.add(use);
  assertWithinGrants(commands, tenants.problems);
}

/** The commands noted since the last call, cleared. */
export function takeRecorded(): RecordedCommand[] {
  return recorded.splice(0, recorded.length);
}

/**
 * Throws if a command of the current test was sent outside a known function, or asked for
 * what its function's row does not grant, or if the tenant check found a key of another
 * tenant than the one its code acted for (`tenantProblems`, test/support/tenant-check.ts).
 */
export function assertWithinGrants(
  commands: readonly RecordedCommand[],
  tenantProblems: readonly string[] = tenantCrossings(commands).problems,
): void {
  const problems: string[] = [];
  for (const { sender, command, requests, scope } of commands) {
    if (sender === undefined) {
      problems.push(
        `${command} was sent outside a known function: invoke routes with invoke() and call other handlers through functionUnderTest()`,
      );
      continue;
    }
    const role = roleOf(sender, requests, scope);
    for (const request of ungranted(role.grant, requests)) {
      if (ungranted(sender.grant, [request]).length > 0) problems.push(refusal(sender, command, request));
      else problems.push(wrongRole(sender, command, request, role.name, scope?.tenant));
    }
  }
  const sections = [
    ...(problems.length > 0
      ? [`DynamoDB commands beyond the grant (IAM would deny them):\n${[...new Set(problems)].join('\n')}`]
      : []),
    ...(tenantProblems.length > 0
      ? [
          `DynamoDB commands on another tenant's keys than the one the code acts for (#shared/tenant-scope):\n${[...new Set(tenantProblems)].join('\n')}`,
        ]
      : []),
  ];
  if (sections.length > 0) throw new Error(sections.join('\n'));
}

/**
 * Which of its two roles a function sends a command under in AWS, and what that role may
 * do: the tenant role (its row's accesses to tenants' records, `splitTenantAccess`) when
 * the code acts for a tenant and the command is about a tenant's records, as
 * `TenantScopedDocumentClient` chooses; its own role otherwise. A function that crosses
 * tenants (`crossTenant`), or has no access to tenants' records, has only its own.
 */
function roleOf(
  fn: FunctionUnderTest,
  requests: readonly TableRequest[],
  scope: Readonly<TenantScope> | undefined,
): { name: 'tenant role' | 'own role'; grant: readonly TableAccess[] } {
  const split = splitTenantAccess(fn.grant, fn.row.crossTenant === undefined);
  return scope?.tenant !== undefined && split.tenant.length > 0 && asksForTenantRecords(requests)
    ? { name: 'tenant role', grant: split.tenant }
    : { name: 'own role', grant: split.own };
}

/**
 * A request its row grants, but not the role it goes under: acting for no tenant, under the
 * own role, which reaches no tenant's records; or in one command with requests for the
 * other role (a tenant's records and records of no tenant at once).
 */
function wrongRole(
  fn: FunctionUnderTest,
  command: string,
  request: TableRequest,
  role: 'tenant role' | 'own role',
  tenant: string | undefined,
): string {
  const sent = `${fn.id} sent ${command} (${request.action} ${request.index === undefined ? `on ${request.pk}` : `on index ${request.index}`})`;
  if (tenant === undefined)
    return `${sent} acting for no tenant: in AWS it goes under the function's own role, which reaches no tenant's records (its tenant role does, once the code names the tenant: actingFor in #shared/tenant-scope, a queue worker's tenantOf), or declare crossTenant in its row in lib/service if it must reach many tenants`;
  return `${sent} under its ${role} beside requests only the other role may make: send records of a tenant and records of no tenant in separate commands`;
}

/**
 * Why one request is beyond its function's grant, and the way out: the action missing from
 * the row, or a key of a kind the row does not name for that action (the kind to add to its
 * `leadingKeys`), or a key of no kind at all.
 */
function refusal(fn: FunctionUnderTest, command: string, request: TableRequest): string {
  const needs = `${fn.id} sent ${command}, which needs ${request.action}`;
  if (request.index !== undefined)
    return `${needs} on index ${request.index}: its row in lib/service does not grant it`;
  const sameAction = fn.grant.filter(
    (access) => access.leadingKeys && access.actions.some((action) => action === request.action),
  );
  if (request.pk === undefined) {
    return sameAction.length > 0
      ? `${needs} on a partition key the recorder could not read (its grant is confined by key): name the table's partition key in the key condition, or teach requestsOf in functions/shared/db/command-requests.ts to read it`
      : `${needs}: its row in lib/service does not grant it`;
  }
  if (sameAction.length === 0) return `${needs} on ${request.pk}: its row in lib/service does not grant it`;
  const kind = kindOf(request.pk);
  if (kind === undefined) {
    return `${needs} on ${request.pk}, a key of no kind: give its records a prefix in KEY_PREFIX (functions/shared/db/keys.ts) and name that kind in the leadingKeys of its row in lib/service`;
  }
  const granted = [...new Set(sameAction.flatMap((access) => access.leadingKeys ?? []))].join(', ');
  return `${needs} on ${request.pk}, a ${kind} key: its row in lib/service grants ${request.action} only on ${granted} keys; add '${kind}' to the leadingKeys of that access if the code is right`;
}
