import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../lib/repo-root';

/**
 * `functions/shared/dependencies.ts` is where every port registers, so it is where an
 * import cycle forms when it imports a port's types back. The graph below counts every
 * static import and re-export, type-only ones too (a cycle of types still ties the
 * modules' meaning together, and one value import added later makes it a load-order bug).
 */

const FUNCTIONS = join(REPO_ROOT, 'functions');
const ALIASES = Object.entries(
  (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { imports: Record<string, string> }).imports,
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The file an import names, or undefined for a package. */
function resolveImport(from: string, specifier: string): string | undefined {
  let base: string | undefined;
  if (specifier.startsWith('.')) base = join(dirname(from), specifier);
  for (const [alias, target] of ALIASES) {
    const prefix = alias.replace('*', '');
    if (specifier.startsWith(prefix)) base = join(REPO_ROOT, target.replace('*', specifier.slice(prefix.length)));
  }
  if (base === undefined) return undefined;
  const file = [base, `${base}.ts`, join(base, 'index.ts')].find(
    (candidate) => candidate.endsWith('.ts') && existsSync(candidate),
  );
  if (!file) throw new Error(`${relative(REPO_ROOT, from)}: cannot resolve ${specifier}`);
  return file;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(FUNCTIONS)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].flatMap((match) => {
      const target = resolveImport(file, match[1] ?? match[2] ?? '');
      return target ? [target] : [];
    });
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), as repository paths. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(relative(REPO_ROOT, member));
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the import graph of functions/', () => {
  const graph = importGraph();

  it('has no import cycle, type-only imports counted: each port adds itself to Dependencies where it is declared', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('dependencies.ts imports no module of the service: only the SDK clients it builds', () => {
    const dependencies = join(FUNCTIONS, 'shared/dependencies.ts');
    expect((graph.get(dependencies) ?? []).map((file) => relative(REPO_ROOT, file))).toEqual([]);
  });
});
