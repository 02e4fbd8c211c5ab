import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The source's import graph, read from the files themselves (type-only imports count: a
// cycle of types is still two modules that cannot be understood apart): what the layering
// docs/architecture.md states is held on.

/** A source file, by its path from the repository root (`functions/shared/errors.ts`). */
export type SourcePath = string;

export interface ImportGraph {
  /** Every source file and the source files it imports (packages are left out). */
  readonly edges: ReadonlyMap<SourcePath, ReadonlySet<SourcePath>>;
  /** Imports that name a source path which does not exist. */
  readonly unresolved: readonly { readonly from: SourcePath; readonly specifier: string }[];
}

const IMPORT_PATTERNS = [
  // import x from '…'; import type { x } from '…'; export { x } from '…'; export * from '…'
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
  // import '…' (for its effects)
  /(?:^|[\s;])import\s*['"]([^'"]+)['"]/g,
  // import('…'), vi.mock('…'), vi.importActual('…')
  /\b(?:import|mock|importActual|doMock)\(\s*['"]([^'"]+)['"]/g,
];

/** The specifiers a TypeScript file imports, comments left out. */
export function specifiersOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = new Set<string>();
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of code.matchAll(pattern)) found.add(match[1]);
  }
  return [...found];
}

/** Every `.ts` file under the given folders (relative to root), `node_modules` left out. */
export function sourceFiles(root: string, folders: readonly string[]): SourcePath[] {
  const files: SourcePath[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(join(root, folder))) {
      if (name === 'node_modules') continue;
      const path = join(folder, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const folder of folders) if (existsSync(join(root, folder))) walk(folder);
  return files.sort();
}

/** package.json `imports`: `#alias/*` → `./folder/*.ts`. */
type Aliases = Record<string, string>;

function resolveSpecifier(root: string, from: SourcePath, specifier: string, aliases: Aliases): string | undefined {
  let target: string | undefined;
  if (specifier.startsWith('.')) {
    target = relative(root, resolve(root, dirname(from), specifier));
  } else if (specifier.startsWith('#')) {
    for (const [pattern, mapped] of Object.entries(aliases)) {
      const prefix = pattern.replace(/\*$/, '');
      if (!specifier.startsWith(prefix)) continue;
      target = relative(root, resolve(root, mapped.replace('*', specifier.slice(prefix.length))));
      break;
    }
    if (target === undefined) return specifier;
  } else {
    return undefined; // a package
  }
  for (const candidate of [target, `${target}.ts`, join(target, 'index.ts'), target.replace(/\.js$/, '.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) {
      return candidate;
    }
  }
  return existsSync(join(root, target)) && statSync(join(root, target)).isFile() ? undefined : target;
}

/** The import graph of every `.ts` file under `folders`. */
export function importGraph(root: string, folders: readonly string[]): ImportGraph {
  const aliases: Aliases = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports ?? {};
  const edges = new Map<SourcePath, Set<SourcePath>>();
  const unresolved: { from: SourcePath; specifier: string }[] = [];
  for (const file of sourceFiles(root, folders)) {
    const targets = new Set<SourcePath>();
    for (const specifier of specifiersOf(readFileSync(join(root, file), 'utf8'))) {
      const target = resolveSpecifier(root, file, specifier, aliases);
      if (target === undefined) continue;
      if (!target.endsWith('.ts') || !existsSync(join(root, target))) unresolved.push({ from: file, specifier });
      else targets.add(target);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}

/** Every source file `from` reaches through its imports, itself included. */
export function reachableFrom(graph: ImportGraph, from: SourcePath): Set<SourcePath> {
  const seen = new Set<SourcePath>();
  const walk = (file: SourcePath): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of graph.edges.get(file) ?? []) walk(next);
  };
  walk(from);
  return seen;
}

/** The strongly connected components with more than one member (Tarjan): every cycle. */
export function cyclesOf<T>(edges: ReadonlyMap<T, ReadonlySet<T>>): T[][] {
  let next = 0;
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const cycles: T[][] = [];
  const visit = (node: T): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: T[] = [];
    let member: T;
    do {
      member = stack.pop() as T;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node)?.has(node)) cycles.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The graph between groups of files (e.g. folders): an edge where any file of one imports one of the other. */
export function groupGraph(
  graph: ImportGraph,
  groupOf: (file: SourcePath) => string,
): Map<string, Map<string, SourcePath[]>> {
  const groups = new Map<string, Map<string, SourcePath[]>>();
  for (const [from, targets] of graph.edges) {
    const source = groupOf(from);
    const out = groups.get(source) ?? new Map<string, SourcePath[]>();
    groups.set(source, out);
    for (const target of targets) {
      const group = groupOf(target);
      if (group === source) continue;
      out.set(group, [...(out.get(group) ?? []), `${from} → ${target}`]);
    }
  }
  return groups;
}
