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

export interface InitTimes {
  /** Median import of an empty module: what a fresh process's import costs without any code. */
  readonly baselineMs: number;
  /** Per target: median import time minus the baseline. */
  readonly initMs: ReadonlyMap<string, number>;
  readonly samples: number;
}

/**
 * Module initialisation of each bundle: `rounds` fresh `node` processes each, every one
 * timing `await import(bundle)` from inside (import-probe.mjs), so process start and exit
 * are outside the figure. Rounds go round-robin over all targets and an empty module,
 * each round in a rotated order, so a noisy moment hits every target alike instead of the
 * one whose turn it happened to be. One process at a time: two would compete for the
 * same cores and caches.
 */
export async function measureInitTimes(
  targets: readonly InitTarget[],
  options: { readonly rounds: number; readonly workDir: string; log(message: string): void },
): Promise<InitTimes> {
  const empty = join(options.workDir, 'empty.mjs');
  await writeFile(empty, '');
  const baseline: InitTarget = {
    name: '(empty module)',
    bundle: empty,
    env: targets[0]?.env ?? {},
    nodeFlags: targets[0]?.nodeFlags ?? [],
  };
  const all = [baseline, ...targets];
  const samples = new Map<string, number[]>(all.map((target) => [target.name, []]));

  for (let round = 0; round < options.rounds; round++) {
    const started = performance.now();
    for (let i = 0; i < all.length; i++) {
      const target = all[(i + round) % all.length] as InitTarget;
      const { stdout } = await run(process.execPath, [...target.nodeFlags, PROBE, target.bundle], {
        env: target.env,
        cwd: options.workDir,
      });
      const ms = Number(stdout.trim());
      if (!Number.isFinite(ms)) throw new Error(`${target.name}: the import probe wrote ${JSON.stringify(stdout)}`);
      samples.get(target.name)?.push(ms);
    }
    options.log(`init round ${round + 1}/${options.rounds}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  const baselineMs = median(samples.get(baseline.name) ?? []);
  return {
    baselineMs,
    initMs: new Map(targets.map((target) => [target.name, median(samples.get(target.name) ?? []) - baselineMs])),
    samples: options.rounds,
  };
}
