import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableAccess } from '#lib/service/index';
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
interface FunctionUnderTest {
  readonly id: string;
  readonly grant: readonly TableAccess[];
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
const pkOf = (record: Input | undefined): string | undefined =>
  record?.pk === undefined ? undefined : String(record.pk);

/** The IAM actions a document-client command needs, as IAM names them (a transaction: each item's). */
export function requestsOf(command: { constructor: { name: string }; input: Input }): TableRequest[] {
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
 * The document client every handler test runs on: each command is noted, with the function
 * it was sent from, before the mock answers it.
 */
export function recordingClient(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
  Object.assign(client, {
    send: (command: { constructor: { name: string }; input: Input }, ...rest: unknown[]) => {
      recorded.push({ sender: running.getStore(), command: command.constructor.name, requests: requestsOf(command) });
      // The prototype's send at call time: the mock replaces it on `ddb.reset()`.
      return Object.getPrototypeOf(client).send.call(client, command, ...rest);
    },
  });
  return client;
}

/**
 * Runs an HTTP invocation as the route its event names (`routeKey`), so its commands are
 * checked against that route's grant. A fixture route (none of the service's) runs as no
 * function: a table command it sends in a handler test fails as unattributed.
 */
export function asRoute<T>(eventRouteKey: string, invocation: () => Promise<T>): Promise<T> {
  const route = ROUTES.find((candidate) => routeKey(candidate) === eventRouteKey);
  return route ? running.run({ id: route.id, grant: tableAccessOfRoute(route) }, invocation) : invocation();
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
  const route = ROUTES.find((candidate) => candidate.id === id);
  const consumer = CONSUMERS.find((candidate) => candidate.id === id);
  const grant = route ? tableAccessOfRoute(route) : consumer ? [consumer.table] : undefined;
  if (!grant) throw new Error(`no route or consumer ${id} in lib/service`);
  return (...args) => running.run({ id, grant }, () => handler(...args));
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
