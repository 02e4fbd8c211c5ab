import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { localTenantRoleArn } from '#lib/local/iam/local-tenant-roles';
import { startTenantAccessStandIns } from '#lib/local/iam/tenant-access-stand-ins';
import { CONSUMERS, EVERY_ROUTE } from '#lib/service/index';
import { measureColdRequests } from './bundles/cold-request';
import { bundleComposition, compositionOverFloor } from './bundles/composition';
import { type LocalAws, lambdaEnvironment, lambdaNodeFlags } from './bundles/environment';
import { measureInitTimes } from './bundles/init-time';
import { dropTable, measurePeakRss, prepareTable } from './bundles/peak-rss';
import { startQueueRecorder } from './bundles/queue-recorder';
import { FLOOR_STEP, KEPT_FLOOR_STEPS, STEPS, stepsFor } from './bundles/steps';
import {
  FLOOR_ROUTE,
  KEPT_FLOORS,
  type SynthesizedFunction,
  synthesizedBefore,
  synthesizeFunctions,
} from './bundles/synth';
import { startWebhookReceiver, type WebhookReceiver } from './bundles/webhook-receiver';
import { INVOCATIONS, type World } from './bundles/workload';
import type { BenchContext, BenchPart } from './context';
import { type KeptExtra, keptFloorNameFor } from './floor/route';
import type { BenchResults, Goal, HandlerFigures, KeptFloorFigures, OverKept } from './results';
import { round } from './stats';
import { GOAL_OF, meetsGoal } from './verdicts';

/**
 * Issue 11, bundles: every function of the stack (and the floor, a bare GetCommand handler)
 * bundled exactly as `cdk synth` bundles it, then
 * - bytes: `index.mjs` alone. The source map beside it is not counted: Lambda loads it only
 *   because the stack sets NODE_OPTIONS=--enable-source-maps, and that cost is in init_ms;
 * - init_ms: median module initialisation of fresh processes with the function's Lambda
 *   environment (NODE_OPTIONS included), less an empty module's, all functions round-robin;
 * - rss_mb: peak RSS of a process that imports the bundle and serves 1,000 invocations
 *   against DynamoDB Local, fed as the stack feeds it (bundles/workload*.ts); rss_ratio: that
 *   over the floor's, which serves its own invocations the same way in the same run;
 * - cold_ms: median, over fresh processes with the function's Lambda environment, of its
 *   import plus its first invocation served (bundles/cold-request.ts): the workload's events,
 *   each some process's first, against DynamoDB Local and the same stand-ins; cold_ratio:
 *   that over the floor's (its import and one GetItem), interleaved as init_ratio's are.
 */
export interface BundlesOptions {
  /** Fresh processes per bundle for init_ms (at least 15 for the results file). */
  readonly initRounds: number;
  /** Import probes at once (each a fresh process); 1 keeps them from competing for the cores. */
  readonly initLanes: number;
  /** Functions serving their invocations at once in the RSS phase. */
  readonly rssConcurrency: number;
  /** Invocations each function serves in the RSS phase (INVOCATIONS; fewer only while developing). */
  readonly invocations: number;
  /** Leave the RSS phase out (rss_mb 0): a quick look at bytes and init times. */
  readonly skipRss?: boolean;
  /** Fresh processes per function for cold_ms, each serving one of its first requests (at least 15 for the results file). */
  readonly coldRounds: number;
  /** Leave the cold requests out (no cold_ms, nothing judged by cold_ratio). */
  readonly skipCold?: boolean;
  /** Only these functions (route or consumer ids) and the ones whose output they need, with the floor (developing). */
  readonly only?: readonly string[];
  /** V8's semi-space in MB instead of Lambda's (an experiment on what peak RSS is made of, not a result). */
  readonly semiSpaceMb?: number;
  /** Take the bundles of the previous run in the work directory instead of synthesizing (developing the bench). */
  readonly reuseBundles?: boolean;
}

export const DEFAULT_OPTIONS: BundlesOptions = {
  initRounds: 15,
  initLanes: 1,
  rssConcurrency: 2,
  invocations: INVOCATIONS,
  coldRounds: 15,
};

export type BundleFigures = { floor: BenchResults['floor']; handlers: HandlerFigures[] };

export const measureBundles: BenchPart<BundleFigures> = (context) => measureBundlesWith(context, DEFAULT_OPTIONS);

export async function measureBundlesWith(context: BenchContext, options: BundlesOptions): Promise<BundleFigures> {
  const phase = stopwatch(context);
  const synthesized = options.reuseBundles
    ? await synthesizedBefore(context.workDir)
    : await synthesizeFunctions(context.workDir);
  phase(`${options.reuseBundles ? 'reused' : 'synthesized and bundled'} ${synthesized.length} functions`);
  // The functions' steps, and the floors' for the RSS phase (the cold phase probes the floor itself).
  const workload = options.only ? [...stepsFor(options.only), FLOOR_STEP, ...KEPT_FLOOR_STEPS] : STEPS;
  const functions = options.only
    ? synthesized.filter((fn) => workload.some((step) => step.name === fn.name))
    : synthesized;
  const unplanned = functions.filter((fn) => !workload.some((step) => step.name === fn.name));
  if (unplanned.length > 0) {
    throw new Error(
      `no workload step for ${unplanned.map((fn) => fn.name).join(', ')}: add one to test/bench/bundles/workload*.ts`,
    );
  }
  if (options.only) phase(`only ${functions.map((fn) => fn.name).join(', ')} (those named and those they need)`);

  const queues = await startQueueRecorder();
  const receiver = await startWebhookReceiver();
  const tableName = `bench-bundles-${Date.now()}`;
  // Each function assumes its tenant role as in AWS: the STS stand-in and the IAM proxy.
  const tenantAccess = await startTenantAccessStandIns({
    upstream: context.dynamoEndpoint,
    tableName,
    log: (level, message) => level === 'error' && context.log(message),
  });
  const rows = [...EVERY_ROUTE, ...CONSUMERS, FLOOR_ROUTE, ...KEPT_FLOORS.map((kept) => kept.route)];
  tenantAccess.registerRoles(rows);
  const local: LocalAws = {
    tableName,
    dynamoEndpoint: tenantAccess.dynamoEndpoint,
    stsEndpoint: tenantAccess.stsEndpoint,
    tenantRoleArn: (fnName) => {
      const row = rows.find((candidate) => candidate.id === fnName);
      return row && localTenantRoleArn(row);
    },
    queues,
    cipherKey: randomBytes(32).toString('base64'),
    digestKey: randomBytes(32).toString('base64'),
    fieldKey: randomBytes(32).toString('base64'),
    home: context.workDir,
    ...(options.semiSpaceMb !== undefined && { semiSpaceMb: options.semiSpaceMb }),
  };
  try {
    const init = await measureInitTimes(
      functions.map((fn) => ({
        name: fn.name,
        bundle: fn.bundle,
        env: lambdaEnvironment(fn, local),
        nodeFlags: lambdaNodeFlags(fn, options.semiSpaceMb),
      })),
      {
        rounds: options.initRounds,
        reference: floorOf(functions).name,
        referenceEvery: 4,
        lanes: options.initLanes,
        workDir: context.workDir,
        log: context.log,
      },
    );
    phase(`init times: ${init.samples} processes per bundle, empty-module baseline ${init.baselineMs.toFixed(2)} ms`);

    const cold = options.skipCold
      ? undefined
      : await onFreshTable(local, receiver, options.coldRounds, (phaseLocal, world) =>
          measureColdRequests(functions, {
            local: phaseLocal,
            world,
            steps: workload.filter((step) => step !== FLOOR_STEP),
            referenceEvery: 4,
            workDir: context.workDir,
            log: context.log,
          }),
        );
    if (cold) {
      for (const fn of functions) {
        const calls = Object.entries(cold.firstCalls.get(fn.name) ?? {})
          .map(([call, n]) => `${call} ${n}`)
          .join(', ');
        context.log(
          `cold ${fn.name}: import ${cold.importMs.get(fn.name)?.toFixed(1)} ms + first invocation ${cold.firstMs.get(fn.name)?.toFixed(1)} ms (${calls || 'no requests'}), ×floor ${cold.coldRatio.get(fn.name)?.toFixed(3)} (${cold.samples.get(fn.name)} processes)`,
        );
      }
      phase(
        `cold requests: ${options.coldRounds} rounds, the floor's ${cold.coldMs.get(floorOf(functions).name)?.toFixed(1)} ms`,
      );
    }

    const rss = new Map<string, number>();
    if (!options.skipRss) {
      const reports = await onFreshTable(local, receiver, options.invocations, (phaseLocal, world) =>
        measurePeakRss(functions, {
          local: phaseLocal,
          world,
          workDir: context.workDir,
          concurrency: options.rssConcurrency,
          steps: workload,
          log: context.log,
        }),
      );
      for (const [name, report] of reports) rss.set(name, report.maxRssKb / 1024);
      phase(
        `peak RSS: ${reports.size} functions × ${options.invocations} invocations, ${receiver.received()} webhooks received`,
      );
    }

    const floor = floorOf(functions);
    const floorRss = rss.get(floor.name) ?? 0;
    const floorInit = init.initMs.get(floor.name) as number;
    const floorCold = cold?.coldMs.get(floor.name);
    const measured = (fn: SynthesizedFunction) => {
      const coldMs = cold?.coldMs.get(fn.name);
      return {
        bundle_bytes: fn.bundleBytes,
        init_ms: round(init.initMs.get(fn.name) as number),
        init_ratio: round(init.initRatio.get(fn.name) as number, 3),
        bundle_ratio: round(fn.bundleBytes / floor.bundleBytes, 3),
        rss_mb: round(rss.get(fn.name) ?? 0),
        rss_ratio: floorRss > 0 ? round((rss.get(fn.name) ?? 0) / floorRss, 3) : 0,
        ...(coldMs !== undefined && {
          cold_ms: round(coldMs),
          cold_ratio: round(cold?.coldRatio.get(fn.name) as number, 3),
          cold_calls: cold?.firstCalls.get(fn.name) ?? {},
        }),
      };
    };
    const kept: KeptFloorFigures[] = functions
      .filter((fn) => fn.kind === 'kept-floor')
      .map((fn) => ({
        name: fn.name,
        extras: KEPT_FLOORS.find((candidate) => candidate.route.id === fn.name)?.extras ?? [],
        ...measured(fn),
      }));
    const handlers: HandlerFigures[] = [];
    for (const fn of functions.filter((candidate) => candidate.kind === 'route' || candidate.kind === 'consumer')) {
      const own = measured(fn);
      const extras = await clientsOf(fn);
      const keptFloor = kept.find((candidate) => candidate.name === keptFloorNameFor(KEPT_FLOOR_NAMES, extras));
      if (!keptFloor && kept.length > 0) {
        context.log(`bundles: no kept floor carries ${fn.name}'s extras (${extras.join(', ') || 'none'})`);
      }
      handlers.push({
        name: fn.name,
        ...own,
        ...(keptFloor && { kept_floor: keptFloor.name, over_kept: overKept(own, keptFloor) }),
      });
    }
    const figures: BundleFigures = {
      floor: {
        bundle_bytes: floor.bundleBytes,
        init_ms: round(floorInit),
        rss_mb: round(floorRss),
        ...(floorCold !== undefined && { cold_ms: round(floorCold) }),
        ...(kept.length > 0 && { kept }),
      },
      handlers,
    };
    await logWhatDominates(figures, functions, floor, context);
    return figures;
  } finally {
    await tenantAccess.stop();
    await queues.stop();
    await receiver.stop();
  }
}

/**
 * Work on a table of its own (the table name the tenant stand-ins hold, made anew), with
 * its own queue recorder, so what one phase's functions wrote and sent is no other's
 * input; the world's `invocations` are each step's events.
 */
async function onFreshTable<T>(
  local: LocalAws,
  receiver: WebhookReceiver,
  invocations: number,
  work: (local: LocalAws, world: World) => Promise<T>,
): Promise<T> {
  const queues = await startQueueRecorder();
  const phaseLocal: LocalAws = { ...local, queues };
  const { streamArn, db } = await prepareTable(phaseLocal);
  try {
    return await work(phaseLocal, {
      invocations,
      tableName: local.tableName,
      dynamoEndpoint: local.dynamoEndpoint,
      streamArn,
      db,
      queues,
      receiver,
    });
  } finally {
    await dropTable(phaseLocal, db);
    await queues.stop();
  }
}

/**
 * For each function over the bundle goal, what it carries beyond the floor (the largest
 * groups of its source map, by npm package or first-party folder), so a missed goal comes
 * with its cause.
 */
async function logWhatDominates(
  figures: BundleFigures,
  functions: readonly SynthesizedFunction[],
  floor: SynthesizedFunction,
  context: BenchContext,
): Promise<void> {
  const floorComposition = await bundleComposition(floor.dir);
  const describe = (over: [string, number][]) =>
    over.map(([group, bytes]) => `${group} ${bytes > 0 ? '+' : ''}${(bytes / 1024).toFixed(1)} KB`).join(', ');
  for (const handler of figures.handlers) {
    if (meetsGoal(handler.bundle_ratio, GOAL_OF.bundle_ratio)) continue;
    const fn = functions.find((candidate) => candidate.name === handler.name) as SynthesizedFunction;
    const composition = await bundleComposition(fn.dir);
    const kept = functions.find((candidate) => candidate.name === handler.kept_floor);
    const overKept = kept
      ? `; over its kept floor ${((handler.bundle_bytes - kept.bundleBytes) / 1024).toFixed(0)} KB: ${describe(
          compositionOverFloor(composition, await bundleComposition(kept.dir), 4),
        )}, …`
      : '';
    context.log(
      `bundles: ${handler.name} carries ${((handler.bundle_bytes - floor.bundleBytes) / 1024).toFixed(0)} KB over the floor: ${describe(compositionOverFloor(composition, floorComposition, 4))}, …${overKept}`,
    );
  }
}

const KEPT_FLOOR_NAMES = KEPT_FLOORS.map(({ route, extras }) => ({ name: route.id, extras }));

/** The kept floors' extra packages a bundle carries, read from its source map. */
async function clientsOf(fn: SynthesizedFunction): Promise<KeptExtra[]> {
  const composition = await bundleComposition(fn.dir);
  return (Object.entries(EXTRA_PACKAGES) as [KeptExtra, string][])
    .filter(([, pkg]) => (composition.get(pkg) ?? 0) > 0)
    .map(([extra]) => extra);
}

const EXTRA_PACKAGES: Record<KeptExtra, string> = {
  metrics: '@aws-lambda-powertools/metrics',
  kms: '@aws-sdk/client-kms',
  sqs: '@aws-sdk/client-sqs',
};

/** Each of a function's ratios to the floor over its kept floor's. */
function overKept(own: Omit<HandlerFigures, 'name'>, kept: KeptFloorFigures): OverKept {
  const over = (a: number, b: number) => (b > 0 ? round(a / b, 3) : 0);
  return {
    bundle_ratio: over(own.bundle_ratio, kept.bundle_ratio),
    init_ratio: over(own.init_ratio, kept.init_ratio),
    rss_ratio: over(own.rss_ratio, kept.rss_ratio),
    ...(own.cold_ratio !== undefined &&
      kept.cold_ratio !== undefined && { cold_ratio: over(own.cold_ratio, kept.cold_ratio) }),
  };
}

function floorOf(functions: readonly SynthesizedFunction[]): SynthesizedFunction {
  const floor = functions.find((fn) => fn.kind === 'floor');
  if (!floor) throw new Error('the floor was not synthesized');
  return floor;
}

function stopwatch(context: BenchContext): (what: string) => void {
  const started = performance.now();
  let last = started;
  return (what) => {
    const now = performance.now();
    context.log(
      `bundles: ${what} (${((now - last) / 1000).toFixed(1)} s; ${((now - started) / 1000).toFixed(1)} s in all)`,
    );
    last = now;
  };
}

/** The figures as a table, goals marked: `!` where a goal is missed, `-` where not measured. */
export function formatBundleFigures(figures: BundleFigures): string {
  const mark = (value: number, goal: Goal) => `${value.toFixed(3)}${meetsGoal(value, goal) ? ' ' : '!'}`;
  const plain = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(3));
  const over = (h: HandlerFigures) =>
    h.over_kept
      ? [
          h.kept_floor ?? '-',
          plain(h.over_kept.bundle_ratio),
          plain(h.over_kept.init_ratio),
          plain(h.over_kept.rss_ratio),
          plain(h.over_kept.cold_ratio),
        ]
      : ['-', '-', '-', '-', '-'];
  const rows = [
    [
      'function',
      'bytes',
      'init_ms',
      'init_ratio',
      'bundle_ratio',
      'rss_mb',
      'rss_ratio',
      'cold_ms',
      'cold_ratio',
      'kept floor',
      '÷kept: bytes',
      'init',
      'rss',
      'cold',
    ],
    [
      '(floor)',
      String(figures.floor.bundle_bytes),
      figures.floor.init_ms.toFixed(1),
      '1.000 ',
      '1.000 ',
      figures.floor.rss_mb.toFixed(1),
      '1.000 ',
      figures.floor.cold_ms?.toFixed(1) ?? '-',
      figures.floor.cold_ms === undefined ? '- ' : '1.000 ',
      '',
      '',
      '',
      '',
      '',
    ],
    ...(figures.floor.kept ?? []).map((k) => [
      `(${k.name})`,
      String(k.bundle_bytes),
      k.init_ms.toFixed(1),
      `${plain(k.init_ratio)} `,
      `${plain(k.bundle_ratio)} `,
      k.rss_mb.toFixed(1),
      `${plain(k.rss_ratio)} `,
      k.cold_ms?.toFixed(1) ?? '-',
      `${plain(k.cold_ratio)} `,
      '',
      '',
      '',
      '',
      '',
    ]),
    ...figures.handlers.map((h) => [
      h.name,
      String(h.bundle_bytes),
      h.init_ms.toFixed(1),
      mark(h.init_ratio, GOAL_OF.init_ratio),
      mark(h.bundle_ratio, GOAL_OF.bundle_ratio),
      h.rss_mb.toFixed(1),
      mark(h.rss_ratio, GOAL_OF.rss_ratio),
      h.cold_ms?.toFixed(1) ?? '-',
      h.cold_ratio === undefined ? '- ' : mark(h.cold_ratio, GOAL_OF.cold_ratio),
      ...over(h),
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
        .join('  '),
    )
    .join('\n');
}

const USAGE = `npx tsx test/bench/bundles.ts [options]: the bundles part alone, on a DynamoDB Local of its own;
prints the table and writes .bench/work/bundles/figures.json.
  --rounds=N        fresh processes per bundle for init_ms (${DEFAULT_OPTIONS.initRounds})
  --lanes=N         import probes at once (${DEFAULT_OPTIONS.initLanes})
  --cold-rounds=N   fresh processes per function for cold_ms, each serving one first request (${DEFAULT_OPTIONS.coldRounds})
  --skip-cold       no cold requests
  --concurrency=N   functions serving at once in the RSS phase (${DEFAULT_OPTIONS.rssConcurrency})
  --invocations=N   invocations per function in the RSS phase (${DEFAULT_OPTIONS.invocations})
  --skip-rss        no RSS phase
  --only=A,B        only these functions (route or consumer ids) and those whose output they need, with the floor
  --reuse           the bundles of the previous run in .bench/work/bundles instead of synthesizing
  --semi-space=MB   V8's semi-space instead of the one Lambda's flags give (25 MB at 512 MB): what peak RSS
                    is made of (the young generation V8 lets grow, or memory kept); an experiment, never a result
Figures from fewer rounds or invocations, or from --only, are for developing the bench, not for results.`;

/** `npx tsx test/bench/bundles.ts --help`: the options (USAGE). */
async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const only = arg('only')
    ?.split(',')
    .filter((id) => id !== '');
  const options: BundlesOptions = {
    initRounds: Number(arg('rounds') ?? DEFAULT_OPTIONS.initRounds),
    initLanes: Number(arg('lanes') ?? DEFAULT_OPTIONS.initLanes),
    rssConcurrency: Number(arg('concurrency') ?? DEFAULT_OPTIONS.rssConcurrency),
    invocations: Number(arg('invocations') ?? DEFAULT_OPTIONS.invocations),
    skipRss: process.argv.includes('--skip-rss'),
    coldRounds: Number(arg('cold-rounds') ?? DEFAULT_OPTIONS.coldRounds),
    skipCold: process.argv.includes('--skip-cold'),
    ...(only && { only }),
    reuseBundles: process.argv.includes('--reuse'),
    ...(arg('semi-space') !== undefined && { semiSpaceMb: Number(arg('semi-space')) }),
  };
  const workDir = resolve('.bench/work/bundles');
  if (!options.reuseBundles) await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const dynamo = await startDynamoDbLocal();
  const started = performance.now();
  try {
    const figures = await measureBundlesWith(
      { dynamoEndpoint: dynamo.endpoint, workDir, log: (message) => process.stderr.write(`${message}\n`) },
      options,
    );
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(workDir, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
    process.stdout.write(`${formatBundleFigures(figures)}\n`);
    process.stdout.write(`bundles part: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  } finally {
    await dynamo.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
