import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import type { QueueRecorder } from './queue-recorder';
import type { WebhookReceiver } from './webhook-receiver';

/**
 * What each function serves while its peak RSS is measured: 1,000 invocations that do the
 * work they do deployed. The functions feed each other as the stack's pipeline does:
 * routes write the table, the stream router reads the table's stream and sends to the
 * (recorded) queues, the workers take those messages, the delivery worker posts to a
 * local receiver. So a step names the steps whose output it needs (`after`), and builds
 * its events only when those have run. Each area's steps are in its own file.
 */
export const INVOCATIONS = 1_000;

export interface World {
  /** Invocations per function: INVOCATIONS, fewer for a quick look while developing. */
  readonly invocations: number;
  readonly tableName: string;
  readonly dynamoEndpoint: string;
  readonly streamArn: string;
  /** The bench's own client, for looking up what earlier steps wrote. */
  readonly db: DynamoDBDocumentClient;
  readonly queues: QueueRecorder;
  readonly receiver: WebhookReceiver;
}

export interface Step {
  /** The function: a route or consumer id, or the floor's. */
  readonly name: string;
  /** Steps whose writes or messages this one's events need. */
  readonly after: readonly string[];
  /**
   * The outcomes that mean the invocation did its work (HTTP statuses, `ok`); anything else
   * fails the bench, so a figure never comes from a function answering errors.
   */
  readonly expect: readonly string[];
  events(world: World): Promise<unknown[]>;
}

/** The partner of the verify-account and event steps, and of the person steps. */
export const ACCOUNTS_TENANT = 'bench-accounts';
export const PERSONS_TENANT = 'bench-persons';

/** The route of this id (deployed or not), for building its events. */
export function route(id: string): RouteDefinition {
  const found = ROUTES.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
}

/** `n` events, the i-th from `build(i)`. */
export const times = <T>(n: number, build: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => build(i));

/** Every item of some byTenant (gsi1) partitions, oldest first, with the attributes that index projects. */
export async function byTenant(world: World, partitions: readonly string[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (const partition of partitions) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await world.db.send(
        new QueryCommand({
          TableName: world.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :partition',
          ExpressionAttributeValues: { ':partition': partition },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return items.sort((a, b) => String(a.gsi1sk).localeCompare(String(b.gsi1sk)));
}

/** The sort keys of one table partition (e.g. a tenant's webhook configuration ids). */
export async function sortKeysOf(world: World, partition: string): Promise<string[]> {
  const keys: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await world.db.send(
      new QueryCommand({
        TableName: world.tableName,
        KeyConditionExpression: 'pk = :partition',
        ExpressionAttributeValues: { ':partition': partition },
        ProjectionExpression: 'sk',
        ExclusiveStartKey: start,
      }),
    );
    keys.push(...(page.Items ?? []).map((item) => String(item.sk)));
    start = page.LastEvaluatedKey;
  } while (start);
  return keys;
}
