import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import { LocalCipher } from '#shared/cipher/local-cipher';
import { TenantRepository } from '#shared/db/tenants/index';
import { apiEvent, lambdaContext } from './api-event';
import { type BareSide, bareReplay, mirrorTo, twinPreparation } from './bare-replay';
import {
  type BenchService,
  discardingQueue,
  type Handler,
  newFieldCipher,
  publicUrlPolicy,
  startBenchService,
} from './bench-service';
import { type Call, dynamoCalls, serviceDocumentClient } from './call-recorder';
import type { BenchContext, BenchPart } from './context';
import { FLOOR_ROUTE } from './floor/route';
import { overheadScenarios, overheadVariants, type Scenario, twinTableOf } from './overhead-scenarios';
import { isMain, runStandalone } from './standalone';
import { median, round } from './stats';
import { textTable } from './text-table';
import { GOAL_OF, meetsGoal } from './verdicts';

/**
 * Handler overhead (issue 11): each HTTP handler's median latency on a realistic API
 * Gateway event, divided by the median of the bare calls it makes — the same DynamoDB
 * commands with the same inputs, sent by a document client configured as the service's,
 * with no middleware, validation or serialisation around them. What it divides out is
 * what the middleware stack, validation and serialisation cost, the stack's own table
 * calls included (the rate-limit token on every request, an idempotency record when a
 * key is sent; the tenant alias and rate policy are cached per container).
 *
 * How the bare side makes the same calls on the same data: the handler runs on table H;
 * its own commands of that invocation are recorded and replayed, right after, on a twin
 * table B that has received every handler write since the start (seeds are mirrored), so
 * each replayed condition holds or fails exactly as it did for the handler. Handler and
 * bare runs alternate (A, B, A, B …), so noise hits both alike.
 *
 * Non-DynamoDB calls are made on both sides: the local AES-GCM cipher (KMS in AWS), a
 * queue that keeps nothing (SQS in AWS), the webhook URL check with a resolver answering a
 * public address (DNS in AWS). In AWS those are network calls of a few milliseconds
 * that both sides would pay alike; here they cost microseconds, so the ratios are, if
 * anything, a little higher than in AWS.
 */
export interface OverheadRow {
  readonly route: string;
  /** Median handler latency (ms). */
  readonly handler_ms: number;
  /** Median latency of its bare calls (ms). */
  readonly bare_ms: number;
  readonly ratio: number;
  /** The ratio had the stack made no table calls: what in-process work alone adds (middleware, validation, JSON, logging). */
  readonly ratio_without_stack_calls: number;
  /** Median time of the middleware stack's table calls within the handler (ms). */
  readonly stack_ms: number;
  /** Median time of the handler's own table calls within the handler (ms): the same calls bare_ms times. */
  readonly own_ms: number;
  /** Median time the handler spent on neither table calls (its own or the stack's): middleware, validation, JSON, logging (ms). */
  readonly in_process_ms: number;
  /** Table calls of one invocation: the middleware stack's, the handler's own. */
  readonly stack_calls: string;
  readonly own_calls: string;
  /** Non-DynamoDB calls of one invocation (made on both sides). */
  readonly other_calls: string;
}

export interface OverheadOptions {
  /** Measured pairs per route (after warm-up). */
  readonly runs?: number;
  readonly warmUp?: number;
  /** Only these route ids (development). */
  readonly only?: readonly string[];
}

const CLIENT_ID = 'bench-overhead';
/**
 * The client the review routes are measured for: registered as an operator by its alias
 * record, as the stack registers context `operators` (any other client answers 403).
 */
const OPERATOR_CLIENT_ID = 'bench-operator';
const clientOf = (route: RouteDefinition) =>
  route.scopes.includes('review:screening') ? OPERATOR_CLIENT_ID : CLIENT_ID;

export async function measureOverheadRows(
  context: BenchContext,
  options: OverheadOptions = {},
): Promise<OverheadRow[]> {
  const runs = options.runs ?? 60;
  const warmUp = options.warmUp ?? 20;
  const handlerTable = `bench-overhead-${randomUUID()}`;
  const twinTable = twinTableOf(handlerTable);
  const service = await startBenchService({ dynamoEndpoint: context.dynamoEndpoint, tableName: handlerTable });
  const bare: BareSide = {
    db: serviceDocumentClient(),
    cipher: new LocalCipher(service.cipherKey),
    fieldCipher: newFieldCipher(),
    queue: discardingQueue,
    urlPolicy: publicUrlPolicy(),
  };
  try {
    await service.createTable(twinTable);
    service.recorder.mirror = mirrorTo(bare.db, handlerTable, twinTable);
    await warmUpEngine(bare.db, [handlerTable, twinTable], Math.min(150, warmUp * 10));
    for (const table of [handlerTable, twinTable]) {
      await new TenantRepository(bare.db, table).putAlias(OPERATOR_CLIENT_ID, OPERATOR_CLIENT_ID, { operator: true });
    }
    const scenarios = overheadScenarios(service, CLIENT_ID);
    const measured: Measured[] = [
      ...ROUTES.map((route) => ({ name: route.id, route, scenario: scenarios[route.id] })),
      ...overheadVariants(scenarios).map((variant) => ({ ...variant, route: routeNamed(variant.routeId) })),
      keptFloor(bare.db, [handlerTable, twinTable]),
    ].filter(({ name, route }) => !options.only || options.only.includes(name) || options.only.includes(route.id));
    const rows: OverheadRow[] = [];
    for (const { name, route, scenario, handler: own } of measured) {
      if (!scenario) throw new Error(`no overhead scenario for route ${route.id}`);
      const started = performance.now();
      const samples: Samples = { handlerMs: [], bareMs: [], stackMs: [], ownMs: [], inProcessMs: [] };
      await scenario.seed?.();
      const handler = await (own ?? ((service: BenchService) => service.handler(route)))(service);
      let last: Call[] = [];
      for (let i = 0; i < warmUp + runs; i++) {
        const event = apiEvent(route, await scenario.request(i), clientOf(route));
        const lambda = lambdaContext(route);
        const { recorder } = service;
        const mirror = recorder.mirror;
        recorder.mirror = undefined;
        recorder.start();
        const before = performance.now();
        const answer = await handler(event, lambda);
        const handlerTime = performance.now() - before;
        last = recorder.stop();
        recorder.mirror = mirror;
        if (answer.statusCode !== scenario.status) {
          const errors = service.loggedErrors().join('\n');
          throw new Error(`${name} answered ${answer.statusCode}, not ${scenario.status}: ${answer.body}\n${errors}`);
        }
        const replay = bareReplay(scenario.bareCalls?.(handlerTable) ?? last, bare, handlerTable, twinTable);
        if (!scenario.bareCalls) await twinPreparation(last, bare, handlerTable, twinTable)();
        const bareBefore = performance.now();
        await replay();
        const bareTime = performance.now() - bareBefore;
        await scenario.after?.(i, answer);
        if (i >= warmUp) {
          // A handler whose calls are not recorded (the kept floor): its own calls taken as long as their replay.
          const ownTime = scenario.bareCalls ? bareTime : callTime(last, 'handler');
          samples.handlerMs.push(handlerTime);
          samples.bareMs.push(bareTime);
          samples.stackMs.push(callTime(last, 'stack'));
          samples.ownMs.push(ownTime);
          samples.inProcessMs.push(handlerTime - callTime(last, 'stack') - ownTime);
        }
      }
      const row = overheadRow(name, samples, last);
      rows.push(row);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      context.log(`${name}: ${row.handler_ms} ms / ${row.bare_ms} ms = ${row.ratio} (${seconds} s)`);
    }
    context.log(`\n${formatOverheadTable(rows)}`);
    return rows;
  } finally {
    bare.db.destroy();
    await service.close();
  }
}

interface Measured {
  readonly name: string;
  readonly route: RouteDefinition;
  readonly scenario: Scenario | undefined;
  /** The handler measured, when it is not the route's own module. */
  readonly handler?: (service: BenchService) => Promise<Handler>;
}

/** The item the kept floor reads, in both tables. */
const KEPT_FLOOR_KEY = { pk: 'BENCH#KEPT-FLOOR', sk: 'BENCH#KEPT-FLOOR' };

/**
 * The kept floor (./floor/kept.ts: middy, a zod/mini schema of the path id, Powertools'
 * Logger given the Lambda context, and one GetItem) measured as one more row, against the
 * same GetItem bare: what the packages every function carries by decision cost a request,
 * before any rule of the service's own (authorisation, tenant, rate limit, access log line,
 * error shape, presenting). Printed beside the routes, not in `overhead_ratio`. Its client
 * is its own, not the service's recorded one, so its bare calls are given (`bareCalls`).
 */
function keptFloor(db: DynamoDBDocumentClient, tables: readonly string[]): Measured {
  const route: RouteDefinition = { ...FLOOR_ROUTE, id: 'BenchKeptFloor', path: '/bench/kept/{id}' };
  return {
    name: 'kept floor (one GetItem)',
    route,
    // Imported once the service has set the handler environment: its client and table name are read at import.
    handler: async () => (await import('./floor/kept')).keptFloorHandler() as unknown as Handler,
    scenario: {
      status: 200,
      seed: async () => {
        for (const TableName of tables) await db.send(new PutCommand({ TableName, Item: { ...KEPT_FLOOR_KEY, n: 1 } }));
      },
      request: () => ({ pathParameters: { id: KEPT_FLOOR_KEY.pk } }),
      bareCalls: (TableName) => [
        { kind: 'dynamodb', owner: 'handler', command: GetCommand, input: { TableName, Key: KEPT_FLOOR_KEY } },
      ],
    },
  };
}

/**
 * DynamoDB Local's JVM compiles each operation's code paths as they get used: the first
 * route measured would otherwise pay for it. Items under a key no route reads.
 */
async function warmUpEngine(db: DynamoDBDocumentClient, tables: readonly string[], rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    for (const TableName of tables) {
      const Key = { pk: `BENCH#WARMUP#${i % 10}`, sk: 'WARMUP' };
      await db.send(new PutCommand({ TableName, Item: { ...Key, n: 0 } }));
      await db.send(new GetCommand({ TableName, Key, ConsistentRead: true }));
      await db.send(
        new UpdateCommand({
          TableName,
          Key,
          UpdateExpression: 'SET n = n + :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
      await db.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': Key.pk },
        }),
      );
      await db.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: [Key] } } }));
      await db.send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName, Item: { ...Key, n: 1 }, ConditionExpression: 'attribute_exists(pk)' } }],
        }),
      );
    }
  }
}

/** Route id → median handler latency / median bare latency (variants, such as an Idempotency-Key sent, are printed only). */
export const measureOverhead: BenchPart<Record<string, number>> = async (context) => {
  const routeIds = new Set(ROUTES.map((route) => route.id));
  const rows = await measureOverheadRows(context);
  return Object.fromEntries(rows.filter((row) => routeIds.has(row.route)).map((row) => [row.route, row.ratio]));
};

const routeNamed = (id: string): RouteDefinition => {
  const route = ROUTES.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`no route ${id}`);
  return route;
};

interface Samples {
  handlerMs: number[];
  bareMs: number[];
  stackMs: number[];
  ownMs: number[];
  inProcessMs: number[];
}

function overheadRow(name: string, samples: Samples, calls: Call[]): OverheadRow {
  const handler = median(samples.handlerMs);
  const bareMedian = median(samples.bareMs);
  const others = calls.filter((call) => call.kind !== 'dynamodb').map((call) => call.kind);
  return {
    route: name,
    handler_ms: round(handler, 2),
    bare_ms: round(bareMedian, 2),
    ratio: round(handler / bareMedian, 3),
    ratio_without_stack_calls: round(
      median(samples.handlerMs.map((ms, i) => ms - (samples.stackMs[i] ?? 0))) / bareMedian,
      3,
    ),
    stack_ms: round(median(samples.stackMs), 2),
    own_ms: round(median(samples.ownMs), 2),
    in_process_ms: round(median(samples.inProcessMs), 2),
    stack_calls: commandNames(calls, 'stack'),
    own_calls: commandNames(calls, 'handler'),
    other_calls: others.length ? others.join(' ') : '-',
  };
}

/** Time spent in table calls (of one owner) during an invocation, as the handler saw it. */
const callTime = (calls: Call[], owner?: 'stack' | 'handler') =>
  dynamoCalls(calls, owner).reduce((sum, call) => sum + (call.ms ?? 0), 0);

const commandNames = (calls: Call[], owner: 'stack' | 'handler') =>
  dynamoCalls(calls, owner)
    .map((call) => call.command.name.replace(/Command$/, '') + (call.failed ? '(failed)' : ''))
    .join(' ') || '-';

export function formatOverheadTable(rows: readonly OverheadRow[]): string {
  return textTable(
    [
      'route',
      'handler ms',
      'bare ms',
      'ratio',
      'goal',
      'w/o stack calls',
      'stack calls ms',
      'own calls ms',
      'in-process ms',
      'stack table calls',
      'own table calls',
      'other calls',
    ],
    [
      ...rows.map((row) => [
        row.route,
        row.handler_ms,
        row.bare_ms,
        row.ratio,
        meetsGoal(row.ratio, GOAL_OF.overhead_ratio) ? 'met' : 'MISSED',
        row.ratio_without_stack_calls,
        row.stack_ms,
        row.own_ms,
        row.in_process_ms,
        row.stack_calls,
        row.own_calls,
        row.other_calls,
      ]),
    ],
  ).join('\n');
}

if (isMain(import.meta.url)) {
  const runs = Number(process.env.BENCH_RUNS ?? 60);
  const only = process.env.BENCH_ONLY?.split(',');
  await runStandalone(
    'overhead',
    (context) => measureOverheadRows(context, { runs, warmUp: Math.min(20, runs), only }),
    formatOverheadTable,
  );
}
