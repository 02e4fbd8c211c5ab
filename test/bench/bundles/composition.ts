import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What a bundle is made of, read from the source map the stack ships beside it: each
 * byte of `index.mjs` is put down to the source its mapping segment names, and sources
 * are grouped by npm package (first-party files by folder). The map is the bundle's own,
 * so no second esbuild run (with options that could differ) is needed to see it.
 */
export type Composition = ReadonlyMap<string, number>;

export async function bundleComposition(dir: string, grouping: Grouping = 'package'): Promise<Composition> {
  const code = await readFile(join(dir, 'index.mjs'), 'utf8');
  const map = JSON.parse(await readFile(join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n').map((line) => Buffer.byteLength(line, 'utf8') + 1);
  const bytes = new Map<string, number>();
  const add = (source: string, n: number) => bytes.set(source, (bytes.get(source) ?? 0) + n);
  let source = 0;
  map.mappings.split(';').forEach((line, index) => {
    const lineBytes = lines[index] ?? 0;
    let column = 0;
    let previous: { column: number; source: number | undefined } = { column: 0, source: undefined };
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      column += fields[0] ?? 0;
      add(label(previous.source, map.sources, grouping), column - previous.column);
      if (fields.length > 1) source += fields[1] ?? 0;
      previous = { column, source: fields.length > 1 ? source : undefined };
    }
    // Columns count UTF-16 units; the tail of the line takes the rest of its bytes.
    add(label(previous.source, map.sources, grouping), Math.max(0, lineBytes - previous.column));
  });
  return bytes;
}

/** By npm package and first-party folder, or by input file (what esbuild's metafile calls `bytesInOutput`). */
export type Grouping = 'package' | 'file';

function label(index: number | undefined, sources: readonly string[], grouping: Grouping): string {
  if (index === undefined) return '(no source: esbuild glue, banner)';
  const path = sources[index] ?? '?';
  if (grouping === 'file')
    return path.replace(/^(\.\.\/)+/, '').replace(/^.*?\/(node_modules|functions|lib|test)\//, '$1/');
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1] as string;
  const parts = path.replace(/^(\.\.\/)+/, '').split('/');
  const repo = parts.findIndex((part) => ['functions', 'test', 'lib'].includes(part));
  return repo < 0 ? path : parts.slice(repo, Math.min(parts.length - 1, repo + 2)).join('/');
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** The groups that differ most between a bundle and the floor's, largest first. */
export function compositionOverFloor(bundle: Composition, floor: Composition, top = 8): [string, number][] {
  const names = new Set([...bundle.keys(), ...floor.keys()]);
  return [...names]
    .map((name): [string, number] => [name, (bundle.get(name) ?? 0) - (floor.get(name) ?? 0)])
    .filter(([, delta]) => delta !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, top);
}

/**
 * `npx tsx test/bench/bundles/composition.ts [--files] [--top=N] <asset dir> [<floor asset dir>]`: the
 * largest groups (or input files, `--files`), or those above the floor.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const grouping: Grouping = args.includes('--files') ? 'file' : 'package';
  const top = Number(args.find((arg) => arg.startsWith('--top='))?.slice('--top='.length) ?? 25);
  const [dir, floorDir] = args.filter((arg) => !arg.startsWith('--'));
  if (!dir) throw new Error('usage: composition.ts [--files] [--top=N] <asset dir> [<floor asset dir>]');
  const bundle = await bundleComposition(dir, grouping);
  const rows = floorDir
    ? compositionOverFloor(bundle, await bundleComposition(floorDir, grouping), top)
    : [...bundle].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, n] of rows) process.stdout.write(`${String(n).padStart(9)}  ${name}\n`);
  process.stdout.write(`${String([...bundle.values()].reduce((a, b) => a + b, 0)).padStart(9)}  (all)\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  });
}
