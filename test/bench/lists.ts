import { randomUUID } from 'node:crypto';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import { LocalCipher } from '#shared/cipher/local-cipher';
import { apiEvent, lambdaContext } from './api-event';
import { bareReads, readCounts } from './bare-waves';
import { type BenchService, startBenchService } from './bench-service';
import { type DynamoCall, dynamoCalls, serviceDocumentClient } from './call-recorder';
import type { BenchContext, BenchPart } from './context';
import {
  accountItems,
  batchWrite,
  makeTemplates,
  personItems,
  type Templates,
  VALID_ACCOUNTS,
  VERIFIED_PERSONS,
} from './list-data';
import { LIST_SHARDS, useBenchListShards } from './list-shards';
import {
  type DeepPageRow,
  GOALS,
  type ListFigures,
  type ListRow,
  type ListRruPerPage,
  type ShardRatio,
} from './results';
import { isMain, runStandalone } from './standalone';
import { median, round } from './stats';
import { textTable } from './text-table';
import { GOAL_OF, meetsGoal } from './verdicts';

/**
 * List scaling (issue 11): page 0 and page 50 (size 100) of `GET /verify/accounts` and
 * `GET /persons`, without and with a status filter matching one item in three, through
 * the real handlers, in a tenant holding 1k records and one holding 100k; the ratio of
 * medians, 1k and 100k runs alternating. The read capacity each page consumed and the
 * index items its queries evaluated are recorded from one extra run with
 * `ReturnConsumedCapacity` (DynamoDB Local reports it), for reading.
 *
 * Issue 12 adds the shard comparison: the large accounts tenant loaded once more, in a
 * tenant with 8 list shards (`TENANT_LIST_SHARDS`), and page 0 of both, unfiltered and
 * filtered, timed alternately; the ratio of medians, 8 shards / 1 shard.
 */
export interface ListOptions {
  /** Records in the large tenant of each kind (100,000 in the issue). */
  readonly large?: number;
  /** Records in the small tenant (1,000). */
  readonly small?: number;
  /** Timed runs per row and tenant (≥ 10). */
  readonly runs?: number;
  /** Only lists of this kind (development). */
  readonly kind?: ListCase['kind'];
}

interface ListCase {
  readonly name: string;
  readonly route: RouteDefinition;
  readonly query: string;
  readonly kind: 'accounts' | 'persons';
}

const route = (id: string): RouteDefinition => ROUTES.find((candidate) => candidate.id === id) as RouteDefinition;

function listCases(): ListCase[] {
  const kinds = [
    { kind: 'accounts', route: route('ListVerifyAccounts'), filter: VALID_ACCOUNTS },
    { kind: 'persons', route: route('ListPersons'), filter: VERIFIED_PERSONS },
  ] as const;
  return kinds.flatMap(({ kind, route, filter }) =>
    [0, 50].flatMap((page) =>
      ['', filter].map((extra) => ({
        kind,
        route,
        query: `index=${page}&size=100${extra ? `&${extra}` : ''}`,
        name: `${route.method} ${route.path} page ${page} size 100${extra ? ` ${extra}` : ''}`,
      })),
    ),
  );
}

export const measureLists: BenchPart<ListFigures> = (context) => measureListFigures(context);

/** The large accounts tenant again, with list shards; and where its templates are made. */
const { listTenant: SHARDED_TENANT, listTemplates: SHARDED_TEMPLATES, shards: SHARDS } = LIST_SHARDS;

export async function measureListFigures(context: BenchContext, options: ListOptions = {}): Promise<ListFigures> {
  const large = options.large ?? 100_000;
  const small = options.small ?? 1_000;
  const runs = Math.max(10, options.runs ?? 10);
  useBenchListShards();
  const service = await startBenchService({
    dynamoEndpoint: context.dynamoEndpoint,
    tableName: `bench-lists-${randomUUID()}`,
  });
  try {
    const tenants = await load(service, context, { small, large }, options.kind);
    const rows: ListRow[] = [];
    const cases = listCases().filter((list) => !options.kind || list.kind === options.kind);
    // Untimed: handler imports, tenant caches, rate buckets, and DynamoDB Local's JIT on every query shape.
    for (const list of cases) {
      for (const tenant of [...tenants[list.kind], tenants[list.kind][0]]) await timedList(service, list, tenant);
    }
    context.log('warmed up');
    for (const list of cases) {
      const [smallTenant, largeTenant] = tenants[list.kind];
      const timings: Record<string, number[]> = { [smallTenant]: [], [largeTenant]: [] };
      // The larger tenant goes first every other run.
      for (let i = 0; i < runs; i++) {
        for (const tenant of i % 2 ? [smallTenant, largeTenant] : [largeTenant, smallTenant]) {
          timings[tenant]?.push(await timedList(service, list, tenant));
        }
      }
      const [smallReads, largeReads] = [
        await pageReads(service, list, smallTenant),
        await pageReads(service, list, largeTenant),
      ];
      const ms1k = median(timings[smallTenant] ?? []);
      const ms100k = median(timings[largeTenant] ?? []);
      const row: ListRow = {
        name: list.name,
        ms_1k: round(ms1k),
        ms_100k: round(ms100k),
        ratio: round(ms100k / ms1k, 3),
        rru_1k: smallReads.rru,
        rru_100k: largeReads.rru,
        scanned_1k: smallReads.scanned,
        scanned_100k: largeReads.scanned,
      };
      rows.push(row);
      context.log(
        `${row.name}: ${row.ms_1k} ms / ${row.ms_100k} ms = ${row.ratio}; RRU ${row.rru_1k} / ${row.rru_100k}`,
      );
    }
    // After the cold runs: the pages served here leave bookmarks a cold page 50 would find.
    const deepRows = await measureDeepPages(service, context, cases, tenants, rows, runs);
    const at100k = deepRows.filter((row) => row.tenant === '100k');
    const shardRatio =
      options.kind === 'persons' ? undefined : await compareShards(service, context, tenants.accounts[1], runs);
    const figures: ListFigures = {
      sequential_ratio: Math.max(...at100k.map((row) => row.sequential_ratio)),
      cursor_ratio: Math.max(...at100k.map((row) => row.cursor_ratio)),
      cold_ratio: Math.max(...at100k.map((row) => row.cold_ratio)),
      deep_rows: deepRows,
      ms_1k: round(median(rows.map((row) => row.ms_1k))),
      ms_100k: round(median(rows.map((row) => row.ms_100k))),
      ratio: Math.max(...rows.map((row) => row.ratio)),
      rows,
      list_rru_per_page: rruPerPage(rows),
      shard_ratio: shardRatio,
    };
    context.log(`\n${formatListTable(figures, { small, large })}`);
    return figures;
  } finally {
    await service.close();
  }
}

/**
 * Page 50 as clients reach it (issue 21), for each list and filter, in both tenants:
 * page 0 then pages 1…49 by number, then page 50 timed (`sequential`); page 0 then 50
 * pages by following each answer's `Link` cursor, the last timed (`cursor`). Each ÷ page 0
 * of the same runs (medians). The cold `index=50` (no bookmark: measured before any
 * sequential run) is the row of the same list from `rows`, ÷ the page 0 row.
 */
async function measureDeepPages(
  service: BenchService,
  context: BenchContext,
  cases: readonly ListCase[],
  tenants: Record<ListCase['kind'], [string, string]>,
  rows: readonly ListRow[],
  runs: number,
): Promise<DeepPageRow[]> {
  const deep: DeepPageRow[] = [];
  for (const page50 of cases.filter((list) => list.query.startsWith('index=50&'))) {
    const filter = page50.query.replace(/^index=50&size=100&?/, '');
    const page = (index: number) => `index=${index}&size=100${filter ? `&${filter}` : ''}`;
    const cold = rows.find((row) => row.name === page50.name);
    const page0 = rows.find((row) => row.name === page50.name.replace(' page 50 ', ' page 0 '));
    for (const [label, tenant] of [
      ['1k', tenants[page50.kind][0]],
      ['100k', tenants[page50.kind][1]],
    ] as const) {
      const first: number[] = [];
      const sequential: number[] = [];
      const cursor: number[] = [];
      for (let i = 0; i < runs; i++) {
        first.push((await answer(service, page50.route, page(0), tenant)).ms);
        for (let index = 1; index < 50; index++) await answer(service, page50.route, page(index), tenant);
        sequential.push((await answer(service, page50.route, page(50), tenant)).ms);
        cursor.push(await byCursor(service, page50.route, page(0), tenant, 50));
      }
      const scanned = {
        sequential: await scannedBy(service, () => answer(service, page50.route, page(50), tenant)),
        cursor: await scannedBy(service, () => byCursor(service, page50.route, page(0), tenant, 50, true)),
      };
      const ms0 = median(first);
      const coldMs = label === '1k' ? cold?.ms_1k : cold?.ms_100k;
      const coldPage0 = label === '1k' ? page0?.ms_1k : page0?.ms_100k;
      const row: DeepPageRow = {
        name: page50.name,
        tenant: label,
        ms_page_0: round(ms0),
        ms_sequential: round(median(sequential)),
        ms_cursor: round(median(cursor)),
        ms_cold: coldMs ?? 0,
        sequential_ratio: round(median(sequential) / ms0, 3),
        cursor_ratio: round(median(cursor) / ms0, 3),
        cold_ratio: coldMs && coldPage0 ? round(coldMs / coldPage0, 3) : 0,
        scanned_sequential: scanned.sequential,
        scanned_cursor: scanned.cursor,
        scanned_cold: label === '1k' ? cold?.scanned_1k : cold?.scanned_100k,
      };
      deep.push(row);
      context.log(
        `${row.name} (${label}): page 0 ${row.ms_page_0} ms; sequential ${row.ms_sequential} ms = ${row.sequential_ratio}×, ` +
          `cursor ${row.ms_cursor} ms = ${row.cursor_ratio}×, cold ${row.ms_cold} ms = ${row.cold_ratio}×; ` +
          `index items ${row.scanned_sequential} / ${row.scanned_cursor} / ${row.scanned_cold}`,
      );
    }
  }
  return deep;
}

/** One answer of a list route, timed, with its `Link` target's query when it has one. */
async function answer(service: BenchService, route: RouteDefinition, query: string, tenant: string) {
  const handler = await service.handler(route);
  const event = apiEvent(route, { query }, tenant);
  const started = performance.now();
  const result = await handler(event, lambdaContext(route));
  const ms = performance.now() - started;
  if (result.statusCode !== 200) {
    throw new Error(`${route.path}?${query} answered ${result.statusCode}: ${result.body}`);
  }
  const link = /^<[^?>]*\?([^>]*)>; rel="next"$/.exec(result.headers?.link ?? '');
  return { ms, next: link?.[1] };
}

/**
 * Page `pages` reached by following `Link` from page `first`: the last request's time
 * (only it recorded when `record`). A list that ends sooner (the 1k tenant holds 10
 * pages) times the request that follows the last link, as page 50 by number is empty there.
 */
async function byCursor(
  service: BenchService,
  route: RouteDefinition,
  first: string,
  tenant: string,
  pages: number,
  record = false,
): Promise<number> {
  let { next } = await answer(service, route, first, tenant);
  for (let page = 1; next; page++) {
    // Restarted before each request: what stays recorded is the last one's.
    if (record) service.recorder.start();
    const answered = await answer(service, route, next, tenant);
    if (page === pages || !answered.next) return answered.ms;
    next = answered.next;
  }
  throw new Error(`${route.path}: page 0 carries no Link`);
}

/** Index items the last request of `run` evaluated (ScannedCount), recorded from where `run` starts the recorder, or from the start. */
async function scannedBy(service: BenchService, run: () => Promise<unknown>): Promise<number> {
  const { recorder } = service;
  recorder.consumedCapacity = true;
  recorder.start();
  try {
    await run();
  } finally {
    recorder.consumedCapacity = false;
  }
  return dynamoCalls(recorder.stop(), 'handler').reduce((sum, call) => sum + (call.scanned ?? 0), 0);
}

/** Page 0 of the account list, unfiltered and filtered: the cases the shard comparison times. */
const firstAccountPages = () =>
  listCases().filter((list) => list.kind === 'accounts' && list.query.startsWith('index=0&'));

/** The read units of page 0 of the account list, from the rows (the goal: the same at 1k and 100k). */
function rruPerPage(rows: readonly ListRow[]): ListRruPerPage | undefined {
  const [plain, filtered] = firstAccountPages().map((list) => rows.find((row) => row.name === list.name));
  if (!plain || !filtered) return undefined;
  return {
    '1k': plain.rru_1k ?? 0,
    '100k': plain.rru_100k ?? 0,
    '1k_filtered': filtered.rru_1k ?? 0,
    '100k_filtered': filtered.rru_100k ?? 0,
  };
}

/**
 * Page 0 of the large tenant under 1 shard and under 8, timed alternately; ratio of medians
 * 8 / 1. Beside each page, its floor (./bare-waves.ts): the read commands that page sent,
 * in the same waves, with a bare client; the floor's own ratio 8 / 1 is what the reads
 * grow by with no service code around them.
 */
async function compareShards(
  service: BenchService,
  context: BenchContext,
  oneShard: string,
  runs: number,
): Promise<ShardRatio> {
  const rows: ShardRatio['rows'][number][] = [];
  const db = serviceDocumentClient();
  try {
    for (const list of firstAccountPages()) {
      for (const tenant of [oneShard, SHARDED_TENANT]) await timedList(service, list, tenant);
      const recorded = new Map<string, DynamoCall[]>();
      for (const tenant of [oneShard, SHARDED_TENANT]) {
        service.recorder.start();
        await timedList(service, list, tenant);
        recorded.set(tenant, dynamoCalls(service.recorder.stop(), 'handler'));
      }
      const floors = new Map([...recorded].map(([tenant, calls]) => [tenant, bareReads(calls, db)]));
      const timings = new Map<string, number[]>();
      const record = (label: string, ms: number) => timings.set(label, [...(timings.get(label) ?? []), ms]);
      const time = async (run: () => Promise<unknown>) => {
        const started = performance.now();
        await run();
        return performance.now() - started;
      };
      for (const floor of floors.values()) await floor();
      for (let i = 0; i < runs; i++) {
        for (const tenant of i % 2 ? [oneShard, SHARDED_TENANT] : [SHARDED_TENANT, oneShard]) {
          record(tenant, await timedList(service, list, tenant));
          record(`floor ${tenant}`, await time(floors.get(tenant) as () => Promise<void>));
        }
      }
      const ms = (label: string) => median(timings.get(label) ?? []);
      const [one, eight] = [ms(oneShard), ms(SHARDED_TENANT)];
      const [floorOne, floorEight] = [ms(`floor ${oneShard}`), ms(`floor ${SHARDED_TENANT}`)];
      const row = {
        name: list.name,
        ms_1_shard: round(one),
        ms_8_shards: round(eight),
        ratio: round(eight / one, 3),
        rru_1_shard: (await pageReads(service, list, oneShard)).rru,
        rru_8_shards: (await pageReads(service, list, SHARDED_TENANT)).rru,
        floor_ms_1_shard: round(floorOne),
        floor_ms_8_shards: round(floorEight),
        floor_ratio: round(floorEight / floorOne, 3),
        reads_1_shard: readCounts(recorded.get(oneShard) ?? []),
        reads_8_shards: readCounts(recorded.get(SHARDED_TENANT) ?? []),
      };
      rows.push(row);
      context.log(
        `${row.name}, 8 shards / 1: ${row.ms_8_shards} ms / ${row.ms_1_shard} ms = ${row.ratio}; ` +
          `its reads alone ${row.floor_ms_8_shards} ms / ${row.floor_ms_1_shard} ms = ${row.floor_ratio} ` +
          `(${JSON.stringify(row.reads_8_shards)} against ${JSON.stringify(row.reads_1_shard)})`,
      );
    }
  } finally {
    db.destroy();
  }
  return { ratio: Math.max(...rows.map((row) => row.ratio)), rows };
}

/** Items made and written at a time. */
const LOAD_SLICE = 5_000;

/** The four tenants: [small, large] of each kind, loaded with BatchWriteItem. */
async function load(
  service: BenchService,
  context: BenchContext,
  sizes: { small: number; large: number },
  only?: ListCase['kind'],
): Promise<Record<ListCase['kind'], [string, string]>> {
  const started = performance.now();
  const templates = await makeTemplates(service);
  const cipher = new LocalCipher(service.cipherKey);
  if (templates.indexKeyCopies.length > 0) {
    context.log(
      `index keys ${templates.indexKeyCopies.join(', ')} are not what accountItem builds for a settled account: ` +
        "copies take the stored templates' keys, with tenant, id, time and account digest replaced",
    );
  }
  const tenants = {
    accounts: ['bench-accounts-small', 'bench-accounts-large'],
    persons: ['bench-persons-small', 'bench-persons-large'],
  } satisfies Record<ListCase['kind'], [string, string]>;
  for (const kind of ['accounts', 'persons'] as const) {
    if (only && kind !== only) continue;
    for (const [tenant, count] of [
      [tenants[kind][0], sizes.small],
      [tenants[kind][1], sizes.large],
    ] as const) {
      const loadStarted = performance.now();
      for (let from = 0; from < count; from += LOAD_SLICE) {
        const slice = { from, to: Math.min(count, from + LOAD_SLICE), count };
        const items =
          kind === 'accounts'
            ? accountItems(templates, tenant, slice)
            : await personItems(templates, tenant, slice, cipher);
        await batchWrite(service.admin, service.tableName, items);
      }
      const seconds = (performance.now() - loadStarted) / 1000;
      context.log(
        `loaded ${count} ${kind} for ${tenant} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)}/s)`,
      );
    }
  }
  if (only !== 'persons') {
    await loadAccounts(service, context, await makeTemplates(service, SHARDED_TEMPLATES), SHARDED_TENANT, sizes.large);
  }
  context.log(`load took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return tenants;
}

/** A tenant's accounts, and how many partitions of each index they fill (the list shards show there). */
async function loadAccounts(
  service: BenchService,
  context: BenchContext,
  templates: Templates,
  tenant: string,
  count: number,
): Promise<void> {
  const started = performance.now();
  const partitions = new Map<string, Set<unknown>>();
  for (let from = 0; from < count; from += LOAD_SLICE) {
    const items = accountItems(templates, tenant, { from, to: Math.min(count, from + LOAD_SLICE), count });
    for (const item of items) {
      for (const [name, value] of Object.entries(item)) {
        if (/^gsi\d+pk$/.test(name)) partitions.set(name, (partitions.get(name) ?? new Set()).add(value));
      }
    }
    await batchWrite(service.admin, service.tableName, items);
  }
  const spread = [...partitions].map(([name, values]) => `${name} ${values.size}`).join(', ');
  context.log(
    `loaded ${count} accounts for ${tenant} (${SHARDS} list shards) in ${((performance.now() - started) / 1000).toFixed(1)} s; index partitions: ${spread}`,
  );
}

async function timedList(service: BenchService, list: ListCase, tenant: string): Promise<number> {
  const handler = await service.handler(list.route);
  const event = apiEvent(list.route, { query: list.query }, tenant);
  const lambda = lambdaContext(list.route);
  const started = performance.now();
  const answer = await handler(event, lambda);
  const ms = performance.now() - started;
  if (answer.statusCode !== 200) {
    throw new Error(`${list.name} answered ${answer.statusCode}: ${answer.body}\n${service.loggedErrors().join('\n')}`);
  }
  return ms;
}

/** Read capacity the page's own table calls consumed, and the index items its queries evaluated. */
async function pageReads(service: BenchService, list: ListCase, tenant: string) {
  const { recorder } = service;
  recorder.consumedCapacity = true;
  recorder.start();
  try {
    await timedList(service, list, tenant);
  } finally {
    recorder.consumedCapacity = false;
  }
  const calls = dynamoCalls(recorder.stop(), 'handler');
  return {
    rru: round(
      calls.reduce((sum, call) => sum + (call.capacity ?? 0), 0),
      1,
    ),
    scanned: calls.reduce((sum, call) => sum + (call.scanned ?? 0), 0),
  };
}

export function formatListTable(figures: ListFigures, sizes = { small: 1_000, large: 100_000 }): string {
  const label = (count: number) => (count >= 1000 ? `${count / 1000}k` : String(count));
  const [s, l] = [label(sizes.small), label(sizes.large)];
  return textTable(
    ['list', `ms ${s}`, `ms ${l}`, 'ratio', 'goal', `RRU ${s}`, `RRU ${l}`, `index items read ${s}`, `${l}`],
    [
      ...figures.rows.map((row) => [
        row.name,
        row.ms_1k,
        row.ms_100k,
        row.ratio,
        meetsGoal(row.ratio, GOAL_OF.list_ratio) ? 'met' : 'MISSED',
        row.rru_1k ?? '-',
        row.rru_100k ?? '-',
        row.scanned_1k ?? '-',
        row.scanned_100k ?? '-',
      ]),
      ['median of rows / worst ratio', figures.ms_1k, figures.ms_100k, figures.ratio, '', '', '', '', ''],
    ],
  )
    .concat(describeShardsAndReads(figures, l))
    .join('\n');
}

function describeShardsAndReads(figures: ListFigures, large: string): string[] {
  const lines: string[] = [];
  if (figures.deep_rows?.length) {
    const mark = (ratio: number) => (meetsGoal(ratio, GOAL_OF.sequential_ratio) ? 'met' : 'MISSED');
    lines.push(
      `page 50 as clients reach it, ÷ page 0 of the same tenant (goal ≤ ${GOALS.listRatio}; cold for reference):`,
      ...textTable(
        [
          'list',
          'tenant',
          'ms page 0',
          'sequential',
          'ratio',
          '',
          'cursor',
          'ratio',
          '',
          'cold',
          'ratio',
          'index items seq / cursor / cold',
        ],
        figures.deep_rows.map((row) => [
          row.name,
          row.tenant,
          row.ms_page_0,
          row.ms_sequential,
          row.sequential_ratio,
          mark(row.sequential_ratio),
          row.ms_cursor,
          row.cursor_ratio,
          mark(row.cursor_ratio),
          row.ms_cold,
          row.cold_ratio,
          `${row.scanned_sequential ?? '-'} / ${row.scanned_cursor ?? '-'} / ${row.scanned_cold ?? '-'}`,
        ]),
      ),
      `worst at ${large}: sequential ${figures.sequential_ratio}, cursor ${figures.cursor_ratio}, cold ${figures.cold_ratio}`,
    );
  }
  const rru = figures.list_rru_per_page;
  if (rru) {
    const ratio = (a: number, b: number) => round(b / a, 3);
    const mark = (value: number) => (meetsGoal(value, GOAL_OF.list_rru_ratio) ? 'met' : 'MISSED');
    lines.push(
      `read units of page 0: unfiltered ${rru['1k']} / ${rru['100k']} = ${ratio(rru['1k'], rru['100k'])} ${mark(ratio(rru['1k'], rru['100k']))}, ` +
        `filtered ${rru['1k_filtered']} / ${rru['100k_filtered']} = ${ratio(rru['1k_filtered'], rru['100k_filtered'])} ` +
        `${mark(ratio(rru['1k_filtered'], rru['100k_filtered']))} (goal: 100k / 1k ≤ ${GOALS.listRruRatio})`,
    );
  }
  if (figures.shard_ratio) {
    lines.push(
      `${large} accounts, ${SHARDS} list shards against 1:`,
      ...textTable(
        [
          'list',
          'ms 1 shard',
          `ms ${SHARDS} shards`,
          'ratio',
          'goal',
          'reads alone ms, 1 / 8',
          'their ratio',
          'RRU 1 shard',
          `RRU ${SHARDS} shards`,
        ],
        figures.shard_ratio.rows.map((row) => [
          row.name,
          row.ms_1_shard,
          row.ms_8_shards,
          row.ratio,
          meetsGoal(row.ratio, GOAL_OF.shard_ratio) ? 'met' : 'MISSED',
          `${row.floor_ms_1_shard ?? '-'} / ${row.floor_ms_8_shards ?? '-'}`,
          row.floor_ratio ?? '-',
          row.rru_1_shard,
          row.rru_8_shards,
        ]),
      ),
    );
  }
  return lines;
}

if (isMain(import.meta.url)) {
  const large = Number(process.env.BENCH_LARGE ?? 100_000);
  const small = Number(process.env.BENCH_SMALL ?? 1_000);
  const runs = Number(process.env.BENCH_RUNS ?? 10);
  const kind = process.env.BENCH_KIND as ListOptions['kind'];
  await runStandalone(
    'lists',
    (context) => measureListFigures(context, { large, small, runs, kind }),
    (figures) => formatListTable(figures, { small, large }),
  );
}
