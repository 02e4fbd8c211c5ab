import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository's functions/ folder. */
export const FUNCTIONS = resolve(__dirname, '../../functions');

/** Every module specifier a file imports or re-exports (static and dynamic, type-only included). */
export const specifiersOf = (source: string): string[] =>
  [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] as string);

/** The .ts files under `folder`, recursively, as absolute paths. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const ALIASES: Record<string, string> = { '#shared/': 'shared/', '#domain/': 'domain/' };

/**
 * The folder of functions/ that a specifier in `file` points into (`persons`, `shared`, …),
 * or undefined for a package or a Node built-in.
 */
export function targetFolder(file: string, specifier: string): string | undefined {
  for (const [alias, folder] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) return folder.slice(0, -1);
  }
  if (!specifier.startsWith('.')) return undefined;
  return relative(FUNCTIONS, resolve(dirname(file), specifier)).split('/')[0];
}

/** The folder of functions/ a file is in. */
export const folderOf = (file: string): string => relative(FUNCTIONS, file).split('/')[0] as string;

/** Which folders of functions/ each folder imports (itself left out). */
export function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(FUNCTIONS)) {
    const from = folderOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const to = targetFolder(file, specifier);
      if (to && to !== from) targets.add(to);
    }
  }
  return graph;
}
