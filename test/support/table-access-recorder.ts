import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ConsumerDefinition, RouteDefinition, TableAccess } from '#lib/service/index';
import { CONSUMERS, ROUTES, routeKey, tableAccessOfRoute } from '#lib/service/index';
import { type IndexName, TABLE_SCHEMA } from '#shared/db/schema';

// The drift test of the table grants (issue 22): every DynamoDB command a handler sends
// in a unit test is noted with the function it ran in, and checked against what that
// function's row grants (a route's with the HTTP stack's share, `tableAccessOfRoute`).
// DynamoDB Local has no IAM, so without this a repository that starts sending a command
// its row does not name passes every test and meets AccessDenied in AWS.

/** One IAM action a command needs, on one item's partition key or on an index. */
export interface TableRequest {
  readonly action: string;
  /** The item's partition key, where the command names one (confined grants test it). */
  readonly pk?: string;
  /** The index queried (its name in TABLE_SCHEMA), for a Query of an index. */
  readonly index?: string;
}

/** A function under test: the row whose grant its commands must stay within. */
export interface FunctionUnderTest {
  readonly id: string;
  readonly grant: readonly TableAccess[];
  /** The row's own access (`table`); the rest of `grant` is shared with other rows. */
  readonly own: TableAccess;
  /** The row itself, for what else it grants (queues, cipher purposes, email). */
  readonly row: RouteDefinition | ConsumerDefinition;
}

export interface RecordedCommand {
  /** The function it was sent from; undefined: from no known function. */
  readonly sender: FunctionUnderTest | undefined;
  readonly command: string;
  readonly requests: readonly TableRequest[];
}

const running = new AsyncLocalStorage<FunctionUnderTest>();
const recorded: RecordedCommand[] = [];

const INDEX_BY_PHYSICAL_NAME = new Map<string, IndexName>(
  Object.entries(TABLE_SCHEMA.indexes).map(([name, index]) => [index.name, name as IndexName]),
);

type Input = Record<string, any>;
type Command = { constructor: { name: string }; input: Input };
const pkOf = (record: Input | undefined): string | undefined =>
  record?.pk === undefined ? undefined : String(record.pk);

/** The IAM actions a document-client command needs, as IAM names them (a transaction: each item's). */
export function requestsOf(command: Command): TableRequest[] {
  const input = command.input;
  switch (command.constructor.name) {
    case 'GetCommand':
      return [{ action: 'GetItem', pk: pkOf(input.Key) }];
    case 'PutCommand':
      return [{ action: 'PutItem', pk: pkOf(input.Item) }];
    case 'UpdateCommand':
      return [{ action: 'UpdateItem', pk: pkOf(input.Key) }];
    case 'DeleteCommand':
      return [{ action: 'DeleteItem', pk: pkOf(input.Key) }];
    case 'QueryCommand':
      return [
        input.IndexName === undefined
          ? { action: 'Query' }
          : { action: 'Query', index: INDEX_BY_PHYSICAL_NAME.get(input.IndexName) ?? input.IndexName },
      ];
    case 'BatchGetCommand':
      return Object.values(input.RequestItems as Record<string, { Keys: Input[] }>).flatMap(({ Keys }) =>
        Keys.map((key) => ({ action: 'BatchGetItem', pk: pkOf(key) })),
      );
    case 'TransactWriteCommand':
      return (input.TransactItems as Input[]).map((item) => {
        if (item.Put) return { action: 'PutItem', pk: pkOf(item.Put.Item) };
        if (item.Update) return { action: 'UpdateItem', pk: pkOf(item.Update.Key) };
        if (item.Delete) return { action: 'DeleteItem', pk: pkOf(item.Delete.Key) };
        return { action: 'ConditionCheckItem', pk: pkOf(item.ConditionCheck?.Key) };
      });
    case 'TransactGetCommand':
      return (input.TransactItems as Input[]).map((item) => ({ action: 'GetItem', pk: pkOf(item.Get?.Key) }));
    case 'BatchWriteCommand':
      return [{ action: 'BatchWriteItem' }];
    case 'ScanCommand':
      return [{ action: 'Scan' }];
    default:
      return [{ action: command.constructor.name }];
  }
}

/** IAM `StringLike`: `*` any run of characters, `?` one. */
const likePattern = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/** Whether one access grants one request: its action (a Query of an index: the index), within its leading keys. */
function grants(access: TableAccess, request: TableRequest): boolean {
  const allowed =
    request.index === undefined
      ? access.actions.some((action) => action === request.action)
      : (access.indexes ?? []).some((index) => index === request.index);
  if (!allowed) return false;
  if (!access.leadingKeys) return true;
  return request.pk !== undefined && access.leadingKeys.some((pattern) => likePattern(pattern).test(request.pk ?? ''));
}

/** The requests of one command that no access of a grant covers. */
export const ungranted = (grant: readonly TableAccess[], requests: readonly TableRequest[]): TableRequest[] =>
  requests.filter((request) => !grant.some((access) => grants(access, request)));

/**
 * Who answers for one access of a function's grant: the function's own row (its id), or,
 * for an access many rows share (the HTTP stack's, the list positions'), the code that
 * sends it for all of them, so the reverse check asks that some test of any of them uses it.
 */
const ownerOf = (fn: FunctionUnderTest, access: TableAccess): string => (access === fn.own ? fn.id : 'shared');

/** One granted permission as the reverse check names it: owner, action or index, leading keys. */
const useKey = (owner: string, what: string, access: TableAccess): string =>
  `${owner}: ${what}${access.leadingKeys ? ` on ${access.leadingKeys.join(' | ')}` : ''}`;

/** Every permission a function's grant gives, as `useKey` names them. */
export const grantedUses = (fn: FunctionUnderTest): string[] =>
  fn.grant.flatMap((access) => [
    ...access.actions.map((action) => useKey(ownerOf(fn, access), action, access)),
    ...(access.indexes ?? []).map((index) => useKey(ownerOf(fn, access), `Query on index ${index}`, access)),
  ]);

/** The permissions of a function's grant that one request uses (every access that grants it). */
export const usesOf = (fn: FunctionUnderTest, request: TableRequest): string[] =>
  fn.grant
    .filter((access) => grants(access, request))
    .map((access) =>
      useKey(ownerOf(fn, access), request.index ? `Query on index ${request.index}` : request.action, access),
    );

/**
 * The document client every handler test runs on: each command is noted, with the function
 * it was sent from, before the mock answers it.
 */
export function recordingClient(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
  Object.assign(client, {
    send: (command: Command, ...rest: unknown[]) => {
      recorded.push({ sender: running.getStore(), command: command.constructor.name, requests: requestsOf(command) });
      // The prototype's send at call time: the mock replaces it on `ddb.reset()`.
      return Object.getPrototypeOf(client).send.call(client, command, ...rest);
    },
  });
  return client;
}

/** The row of lib/service with this id (a route's or a consumer's), as a function under test. */
export function rowFunction(id: string): FunctionUnderTest | undefined {
  const route = ROUTES.find((candidate) => candidate.id === id);
  if (route) return { id, grant: tableAccessOfRoute(route), own: route.table, row: route };
  const consumer = CONSUMERS.find((candidate) => candidate.id === id);
  return consumer && { id, grant: [consumer.table], own: consumer.table, row: consumer };
}

/** Every function of the service: each route and consumer row. */
export const allRowFunctions = (): FunctionUnderTest[] =>
  [...ROUTES, ...CONSUMERS].map(({ id }) => rowFunction(id) as FunctionUnderTest);

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
  const route = ROUTES.find((candidate) => routeKey(candidate) === eventRouteKey);
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
  prototype.send = function send(this: unknown, command: Command, ...rest: unknown[]) {
    const sender = running.getStore();
    if (sender) recorded.push({ sender, command: command.constructor.name, requests: requestsOf(command) });
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
  assertWithinGrants(commands);
}

/** The commands noted since the last call, cleared. */
export function takeRecorded(): RecordedCommand[] {
  return recorded.splice(0, recorded.length);
}

/**
 * Throws if a command of the current test was sent outside a known function, or asked for
 * what its function's row does not grant.
 */
export function assertWithinGrants(commands: readonly RecordedCommand[]): void {
  const problems: string[] = [];
  for (const { sender, command, requests } of commands) {
    if (sender === undefined) {
      problems.push(
        `${command} was sent outside a known function: invoke routes with invoke() and call other handlers through functionUnderTest()`,
      );
      continue;
    }
    for (const request of ungranted(sender.grant, requests))
      problems.push(
        `${sender.id} sent ${command}, which needs ${request.action}${request.index ? ` on index ${request.index}` : ''}${
          request.pk ? ` on ${request.pk}` : ''
        }: its row in lib/service does not grant it`,
      );
  }
  if (problems.length > 0)
    throw new Error(`DynamoDB commands beyond the grant (IAM would deny them):\n${[...new Set(problems)].join('\n')}`);
}
