import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { median } from '../stats';

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL('./import-probe.mjs', import.meta.url));

export interface InitTarget {
  readonly name: string;
  readonly bundle: string;
  /** The function's Lambda environment (NODE_OPTIONS included). */
  readonly env: Readonly<Record<string, string>>;
  /** `node` flags before the script (the Lambda runtime's heap flags). */
  readonly nodeFlags: readonly string[];
}

export interface InitOptions {
  /** Fresh processes per target. */
  readonly rounds: number;
  /** The target every other is compared with (the floor). */
  readonly reference: string;
  /** A reference process runs before and after every this many targets. */
  readonly referenceEvery: number;
  /** Processes at once, each lane with its own share of every round. */
  readonly lanes: number;
  readonly workDir: string;
  log(message: string): void;
}

export interface InitTimes {
  /** Median import of an empty module: what a fresh process's import costs without any code. */
  readonly baselineMs: number;
  /** Per target (the reference included): median import time minus the baseline. */
  readonly initMs: ReadonlyMap<string, number>;
  /**
   * Per target: the median, over its processes, of its init time divided by the mean of
   * the reference's init times just before and after it, so a noisy minute weighs on both
   * sides of each ratio alike.
   */
  readonly initRatio: ReadonlyMap<string, number>;
  readonly samples: number;
}

const EMPTY = '(empty module)';

/**
 * Module initialisation of each bundle: `rounds` fresh `node` processes each, every one
 * timing `await import(bundle)` from inside (import-probe.mjs), so process start and exit
 * are outside the figure. Each round visits every target once, in a rotated order, with a
 * reference process before and after every few targets; the lanes share each round.
 */
export async function measureInitTimes(targets: readonly InitTarget[], options: InitOptions): Promise<InitTimes> {
  const reference = targets.find((target) => target.name === options.reference);
  if (!reference) throw new Error(`no init target named ${options.reference}`);
  const empty = join(options.workDir, 'empty.mjs');
  await writeFile(empty, '');
  const others = [{ ...reference, name: EMPTY, bundle: empty }, ...targets.filter((target) => target !== reference)];
  const times = new Map<string, number[]>([...targets, others[0] as InitTarget].map((t) => [t.name, []]));
  const pairs = new Map<string, [number, number][]>(targets.map((t) => [t.name, []]));
  const probe = async (target: InitTarget): Promise<number> => {
    const { stdout } = await run(process.execPath, [...target.nodeFlags, PROBE, target.bundle], {
      env: target.env,
      cwd: options.workDir,
    });
    const ms = Number(stdout.trim());
    if (!Number.isFinite(ms)) throw new Error(`${target.name}: the import probe wrote ${JSON.stringify(stdout)}`);
    times.get(target.name)?.push(ms);
    return ms;
  };
  /** One lane's share of a round: reference, a few targets, reference, … */
  const lane = async (share: readonly InitTarget[]) => {
    let before = await probe(reference);
    for (let i = 0; i < share.length; i += options.referenceEvery) {
      const group = share.slice(i, i + options.referenceEvery);
      const measured: [InitTarget, number][] = [];
      for (const target of group) measured.push([target, await probe(target)]);
      const after = await probe(reference);
      for (const [target, ms] of measured) pairs.get(target.name)?.push([ms, (before + after) / 2]);
      before = after;
    }
  };

  for (let round = 0; round < options.rounds; round++) {
    const started = performance.now();
    const order = others.map((_, i) => others[(i + round) % others.length] as InitTarget);
    await Promise.all(
      Array.from({ length: options.lanes }, (_, n) => lane(order.filter((_, i) => i % options.lanes === n))),
    );
    options.log(`init round ${round + 1}/${options.rounds}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  const baselineMs = median(times.get(EMPTY) ?? []);
  const ratioOf = (target: InitTarget) =>
    median((pairs.get(target.name) ?? []).map(([ms, ref]) => (ms - baselineMs) / (ref - baselineMs)));
  return {
    baselineMs,
    initMs: new Map(targets.map((target) => [target.name, median(times.get(target.name) ?? []) - baselineMs])),
    initRatio: new Map(targets.map((target) => [target.name, target === reference ? 1 : ratioOf(target)])),
    samples: options.rounds,
  };
}
