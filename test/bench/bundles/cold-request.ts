import { join } from 'node:path';
import { median } from '../stats';
import type { LocalAws } from './environment';
import { mostCommon } from './first-calls';
import { serveAsLambda } from './peak-rss';
import { FLOOR_ITEMS, FLOOR_STEP } from './steps';
import type { SynthesizedFunction } from './synth';
import type { Step, World } from './workload';

export interface ColdOptions {
  readonly local: LocalAws;
  /** The steps' world; its `invocations` are the rounds: each step's events, each served cold. */
  readonly world: World;
  /** The functions' steps (the floor's apart): each needs the steps it names in `after`. */
  readonly steps: readonly Step[];
  /** A floor process runs after every this many functions' (and before the first). */
  readonly referenceEvery: number;
  readonly workDir: string;
  log(message: string): void;
}

export interface ColdRequests {
  /** Per function, the floor included: median of its processes' import plus first invocation (ms). */
  readonly coldMs: ReadonlyMap<string, number>;
  /**
   * Per function: the median, over its processes, of its cold request divided by the mean of
   * the floor's just before and after it (as init_ratio is taken); the floor's is 1.
   */
  readonly coldRatio: ReadonlyMap<string, number>;
  /** Per function, for reading: the medians of the two halves, import and first invocation (ms). */
  readonly importMs: ReadonlyMap<string, number>;
  readonly firstMs: ReadonlyMap<string, number>;
  /** Processes per function (fewer where a step has fewer events than rounds). */
  readonly samples: ReadonlyMap<string, number>;
  /** Per function, the requests its first invocation sent, as most of its processes sent them (serve.mjs). */
  readonly firstCalls: ReadonlyMap<string, Readonly<Record<string, number>>>;
}

interface Sample {
  readonly importMs: number;
  readonly firstMs: number;
  readonly firstCalls: Readonly<Record<string, number>>;
}

/**
 * The cold request of every function: fresh processes that each import the bundle and
 * serve one event, the latency a partner sees when the request lands on a new execution
 * environment (the first request acting for a tenant includes its AssumeRole, against the
 * local STS stand-in). The events are the workload's (workload*.ts) with `invocations` set
 * to the rounds, so the table holds what the steps before wrote, and every event is some
 * process's first: the steps run in waves of those whose `after` have run, each wave's
 * events served round-robin over its functions, a floor process (its import and one
 * GetItem) before and after every few, so each ratio compares processes minutes apart at
 * most.
 */
export async function measureColdRequests(
  functions: readonly SynthesizedFunction[],
  options: ColdOptions,
): Promise<ColdRequests> {
  const byName = new Map(functions.map((fn) => [fn.name, fn]));
  const floor = functions.find((fn) => fn.kind === 'floor');
  if (!floor) throw new Error('no floor among the functions');
  const samples = new Map<string, Sample[]>(functions.map((fn) => [fn.name, []]));
  const pairs = new Map<string, [number, number][]>(functions.map((fn) => [fn.name, []]));
  const floorEvents = await FLOOR_STEP.events({ ...options.world, invocations: FLOOR_ITEMS * 2 });
  let floorProbes = 0;
  const workDir = join(options.workDir, 'cold');

  const probe = async (step: Step, event: unknown): Promise<number> => {
    const fn = byName.get(step.name);
    if (!fn) throw new Error(`no function for the step ${step.name}`);
    const report = await serveAsLambda(fn, options.local, [event], workDir);
    const [outcome = 'none'] = Object.keys(report.outcomes);
    if (!step.expect.includes(outcome)) {
      throw new Error(
        `${fn.name}: its cold request ended ${outcome}, expected ${step.expect.join('/')}\n${report.errors.join('\n')}`,
      );
    }
    samples.get(fn.name)?.push({ importMs: report.importMs, firstMs: report.firstMs, firstCalls: report.firstCalls });
    return report.importMs + report.firstMs;
  };
  const floorProbe = () => probe(FLOOR_STEP, floorEvents[floorProbes++ % floorEvents.length]);

  let before = await floorProbe();
  const done = new Set<string>();
  let pending = [...options.steps];
  while (pending.length > 0) {
    const wave = pending.filter((step) => step.after.every((name) => done.has(name)));
    if (wave.length === 0) {
      throw new Error(
        `no step can run: ${pending.map((step) => `${step.name} (after ${step.after.join(', ')})`).join('; ')}`,
      );
    }
    const started = performance.now();
    const events = new Map<Step, unknown[]>();
    for (const step of wave) events.set(step, await step.events(options.world));
    // Round-robin: every step's first event, in a rotated order, then every step's second, …
    const rounds = Math.max(...[...events.values()].map((list) => list.length));
    const order = Array.from({ length: rounds }, (_, round) =>
      wave
        .map((_, i) => wave[(i + round) % wave.length] as Step)
        .filter((step) => (events.get(step)?.length ?? 0) > round)
        .map((step) => [step, events.get(step)?.[round]] as const),
    ).flat();
    for (let i = 0; i < order.length; i += options.referenceEvery) {
      const measured: [string, number][] = [];
      for (const [step, event] of order.slice(i, i + options.referenceEvery)) {
        measured.push([step.name, await probe(step, event)]);
      }
      const after = await floorProbe();
      for (const [name, ms] of measured) pairs.get(name)?.push([ms, (before + after) / 2]);
      before = after;
    }
    for (const step of wave) done.add(step.name);
    pending = pending.filter((step) => !wave.includes(step));
    options.log(
      `cold requests: ${wave.map((step) => step.name).join(', ')}: ${order.length} processes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  const of = (name: string, pick: (sample: Sample) => number) => median((samples.get(name) ?? []).map(pick));
  const measuredNames = functions.map((fn) => fn.name).filter((name) => (samples.get(name) ?? []).length > 0);
  return {
    coldMs: new Map(measuredNames.map((name) => [name, of(name, (s) => s.importMs + s.firstMs)])),
    coldRatio: new Map(
      measuredNames.map((name) => [
        name,
        name === floor.name ? 1 : median((pairs.get(name) ?? []).map(([ms, reference]) => ms / reference)),
      ]),
    ),
    importMs: new Map(measuredNames.map((name) => [name, of(name, (s) => s.importMs)])),
    firstMs: new Map(measuredNames.map((name) => [name, of(name, (s) => s.firstMs)])),
    samples: new Map(measuredNames.map((name) => [name, samples.get(name)?.length ?? 0])),
    firstCalls: new Map(
      measuredNames.map((name) => [name, mostCommon((samples.get(name) ?? []).map((s) => s.firstCalls))]),
    ),
  };
}
