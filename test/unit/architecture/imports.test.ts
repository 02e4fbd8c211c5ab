import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import {
  cyclesOf,
  groupGraph,
  importGraph,
  type SourcePath,
  sourceFiles,
  specifiersOf,
} from '#test/support/import-graph';

// The layering docs/architecture.md states ("How the code is layered"), held by the import
// graph of the source itself, type-only imports counted: a newcomer can read any file
// knowing only what lies below it.

const graph = importGraph(REPO_ROOT, ['functions', 'lib', 'bin', 'test']);

/** A file's layer: a layer imports only its own and those below it. */
const LAYERS: readonly { readonly folder: string; readonly rank: number }[] = [
  { folder: 'functions/domain/', rank: 0 },
  { folder: 'functions/shared/', rank: 1 },
  { folder: 'functions/', rank: 2 }, // the areas, and the folders that join them
  { folder: 'lib/', rank: 3 },
  { folder: 'bin/', rank: 4 },
  { folder: 'test/', rank: 5 },
];
const rankOf = (file: SourcePath): number => {
  const layer = LAYERS.find(({ folder }) => file.startsWith(folder));
  if (!layer) throw new Error(`${file} is in no layer`);
  return layer.rank;
};

/** The folders of functions/ and what each may import besides itself (domain and shared are layers below all). */
const AREAS_MAY_IMPORT: Record<string, readonly string[]> = {
  domain: [],
  shared: ['domain'],
  // The areas that own entities and emit events know nothing of who reads their events.
  'verify-accounts': ['domain', 'shared'],
  // Both directions of screening record their hits for review (screening-review/record-screening.ts).
  persons: ['screening-review', 'domain', 'shared'],
  screening: ['screening-review', 'domain', 'shared'],
  'screening-review': ['domain', 'shared'],
  deploy: ['domain', 'shared'],
  // The event catalogue joins the emitting areas' kinds and record shapes.
  'event-catalogue': ['verify-accounts', 'persons', 'domain', 'shared'],
  // Webhooks and the event log read events through the catalogue only; a redelivery fans out.
  webhooks: ['event-catalogue', 'domain', 'shared'],
  'event-log': ['webhooks', 'event-catalogue', 'domain', 'shared'],
  // The stream router joins every area's stream rules.
  pipeline: ['verify-accounts', 'persons', 'screening', 'event-catalogue', 'webhooks', 'event-log', 'domain', 'shared'],
};

/** The unit two of which must not import each other both ways: a folder of functions/ or lib/. */
const unitOf = (file: SourcePath): string => {
  const parts = file.split('/');
  if (parts[0] === 'functions' || parts[0] === 'lib') return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
  return parts[0];
};

describe('the import graph', () => {
  it('resolves every relative and # import to a source file', () => {
    expect(graph.unresolved).toEqual([]);
  });

  it('has no cycle between files (type-only imports count)', () => {
    expect(cyclesOf(graph.edges)).toEqual([]);
  });

  it('has no cycle between the folders of functions/ and of lib/', () => {
    const units = groupGraph(graph, unitOf);
    const edges = new Map([...units].map(([unit, out]) => [unit, new Set(out.keys())]));
    const cycles = cyclesOf(edges).map((cycle) =>
      cycle.flatMap((unit) => cycle.flatMap((other) => units.get(unit)?.get(other)?.slice(0, 2) ?? [])),
    );
    expect(cycles).toEqual([]);
  });

  it('never runs back up a layer: domain ← shared ← areas ← lib ← bin ← test', () => {
    const upward = [...graph.edges].flatMap(([from, targets]) =>
      [...targets].filter((target) => rankOf(target) > rankOf(from)).map((target) => `${from} → ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('joins areas only where the table above allows, and knows every folder of functions/', () => {
    const folderOf = (file: SourcePath) => file.split('/')[1] as string;
    const strays = [...graph.edges]
      .filter(([from]) => from.startsWith('functions/'))
      .flatMap(([from, targets]) => {
        const allowed = AREAS_MAY_IMPORT[folderOf(from)];
        if (!allowed) return [`${from}: functions/${folderOf(from)}/ is not in AREAS_MAY_IMPORT`];
        return [...targets]
          .filter((target) => folderOf(target) !== folderOf(from) && !allowed.includes(folderOf(target)))
          .map((target) => `${from} → ${target}`);
      });
    expect(strays).toEqual([]);
  });

  it('keeps the registry of ports free of the service: dependencies.ts imports only SDK packages', () => {
    expect([...(graph.edges.get('functions/shared/dependencies.ts') ?? [])]).toEqual([]);
  });
  it('names a file in another folder by its root: no import climbs two folders, and shared and domain are spelt #shared and #domain', () => {
    const climbing = sourceFiles(REPO_ROOT, ['functions', 'lib', 'bin', 'test']).flatMap((file) =>
      specifiersOf(readFileSync(join(REPO_ROOT, file), 'utf8'))
        .filter((specifier) => /^\.\.\/\.\.\/|^#functions\/(shared|domain)\//.test(specifier))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(climbing).toEqual([]);
  });
});

describe('one home for each fact', () => {
  it('the kinds of key (KEY_PREFIX, KEY_OWNER, KeyKind and their patterns) are imported from functions/shared/db/key-kinds.ts alone, never re-exported', () => {
    const KIND_NAMES =
      /\b(isTenantKind|KEY_OWNER|KEY_PREFIX|KeyKind|keyPattern|kindOfKey|tenantDataPrefix|tenantKeyPattern)\b/;
    const elsewhere = sourceFiles(REPO_ROOT, ['functions', 'lib', 'bin', 'test']).flatMap((file) =>
      [
        ...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(
          /(?:import|export)\s[^;]*?\{([^}]*)\}\s*from\s*'([^']+)'/g,
        ),
      ]
        .filter((m) => KIND_NAMES.test(m[1] as string) && !(m[2] as string).endsWith('key-kinds'))
        .map((m) => `${file}: ${(m[0] as string).replace(/\s+/g, ' ')} (import them from #shared/db/key-kinds)`),
    );
    expect(elsewhere).toEqual([]);
  });
});

describe('source files', () => {
  it('describe their module in // lines: a /** */ block stands directly above the declaration it documents', () => {
    // A /** */ block attaches to the next declaration whatever lies between, so editors
    // show a module's description, written so, as the doc of its first import or export.
    const floating = sourceFiles(REPO_ROOT, ['functions', 'lib', 'bin', 'test/support']).flatMap((file) => {
      const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
      return lines.flatMap((line, start) => {
        if (!line.trimStart().startsWith('/**')) return [];
        const end = lines.findIndex((l, index) => index >= start && l.includes('*/'));
        const next = lines[end + 1] ?? '';
        const floats = next.trim() === '' || next.trimStart().startsWith('/**') || next.startsWith('import ');
        return floats ? [`${file}:${start + 1}`] : [];
      });
    });
    expect(floating).toEqual([]);
  });
});

describe('the import reader', () => {
  it('sees static, type-only, re-exported, side-effect and dynamic imports and mocks, and skips comments', () => {
    const sample = readFileSync(join(REPO_ROOT, 'test/fixtures/architecture/imports-sample.txt'), 'utf8');
    expect(specifiersOf(sample).sort()).toEqual(['#shared/b', './a', './d', './e', './f', '../c'].sort());
  });

  it('finds a cycle of three and a self-import, and nothing in a chain', () => {
    const edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['d'])],
      ['e', new Set(['f'])],
      ['f', new Set<string>()],
    ]);
    expect(cyclesOf(edges)).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
