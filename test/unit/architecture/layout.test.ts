import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_KEY_GENERATOR } from '#lib/constructs/data-key';
import { REPO_ROOT } from '#lib/repo-root';
import { CONSUMERS, EVERY_ROUTE } from '#lib/service/index';
import { ENTITY } from '#shared/db/entities';
import { importGraph, sourceFiles } from '#test/support/import-graph';

// The naming convention docs/architecture.md states ("Where a file goes"): a function's
// entry point is `functions/<area>/handlers/<name>.ts`, and nothing else lives there; use
// cases, schemas, presenters, events and stream rules sit beside the handlers/ folder, a
// read's use case in `read-<entity>.ts` apart from the writes; a repository port is named
// for the records it holds; and no source file of functions/, lib/ or bin/ grows past 250
// lines without saying why.

const ENTRY_POINTS = [
  ...EVERY_ROUTE.map((row) => row.handler),
  ...CONSUMERS.map((row) => row.handler),
  DATA_KEY_GENERATOR,
];

describe('the source layout', () => {
  it('puts every function entry point in its area handlers/ folder', () => {
    const misplaced = ENTRY_POINTS.filter((path) => !/^functions\/[a-z-]+\/handlers\/[a-z-]+\.ts$/.test(path));
    expect(misplaced).toEqual([]);
  });

  it('keeps only entry points in handlers/ folders', () => {
    const entryPoints = new Set(ENTRY_POINTS);
    const strays = sourceFiles(REPO_ROOT, ['functions']).filter(
      (file) => file.includes('/handlers/') && !entryPoints.has(file),
    );
    expect(strays).toEqual([]);
  });

  it('names each idea of events by its own word (docs/architecture.md#one-word-per-idea-events)', () => {
    // The event log, an area's event kinds, the catalogue, the envelope and the stored events
    // each have a word; a file or folder named bare `events` would be a sixth, unsaid meaning.
    const bare = sourceFiles(REPO_ROOT, ['functions', 'lib', 'bin']).filter((file) =>
      file.split('/').some((part) => part === 'events' || part === 'events.ts'),
    );
    expect(bare).toEqual([]);
  });
});

/** The areas of functions/: the folders with entry points (`handlers/`). */
const AREAS = readdirSync(join(REPO_ROOT, 'functions')).filter((name) =>
  existsSync(join(REPO_ROOT, 'functions', name, 'handlers')),
);
const graph = importGraph(REPO_ROOT, ['functions']);

/** What a read may take from its own area: read use cases, and the files every route of an area shares. */
const READ_MAY_IMPORT = /^(read-[a-z-]+|present|path-params|query-schemas)\.ts$/;

/** The files of its own area (not its entry points) that `file` imports. */
const areaImportsOf = (file: string): string[] => {
  const area = file.split('/')[1];
  return [...(graph.edges.get(file) ?? [])].filter(
    (target) => target.startsWith(`functions/${area}/`) && !target.includes('/handlers/'),
  );
};

describe('where a read goes (docs/architecture.md#where-a-file-goes)', () => {
  it('keeps the use case of every GET route in its area’s read-<entity>.ts, apart from the area’s writes', () => {
    const gets = EVERY_ROUTE.filter((route) => route.method === 'GET');
    expect(new Set(gets.map((route) => route.handler.split('/')[1])).size).toBeGreaterThan(3);
    const misplaced = gets.flatMap((route) => {
      const area = route.handler.split('/')[1];
      const taken = areaImportsOf(route.handler);
      const others = taken.filter((file) => !READ_MAY_IMPORT.test(basename(file)));
      const reads = taken.filter((file) => basename(file).startsWith('read-'));
      if (others.length === 0 && reads.length > 0) return [];
      return [
        `${route.id} (GET ${route.path}) takes its use case from ${others.join(', ') || 'no read-<entity>.ts'}: ` +
          `move what it calls into functions/${area}/read-<entity>.ts, apart from the area’s writes, so the GET ` +
          'bundles none of their code (as functions/persons/read-persons.ts is apart from write-person.ts)',
      ];
    });
    expect(misplaced).toEqual([]);
  });

  it('keeps each read-<entity>.ts of an area to reads: of its area it imports only other reads and the shared files', () => {
    const reads = AREAS.flatMap((area) =>
      readdirSync(join(REPO_ROOT, 'functions', area))
        .filter((name) => /^read-[a-z-]+\.ts$/.test(name))
        .map((name) => `functions/${area}/${name}`),
    );
    expect(reads.length).toBeGreaterThanOrEqual(AREAS.length - 2);
    const writing = reads.flatMap((file) =>
      areaImportsOf(file)
        .filter((target) => !READ_MAY_IMPORT.test(basename(target)))
        .map((target) => `${file} imports ${target}: a read bundles no write; take what both need into the read`),
    );
    expect(writing).toEqual([]);
  });
});

/** A repository port, as its folder of functions/shared/db/ declares it (`export const persons = … port(`). */
interface Port {
  readonly name: string;
  readonly folder: string;
}
const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
const kebab = (camelCase: string) => camelCase.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * Why a port's name, or its folder's, does not say what it holds; empty when they do. A port
 * named as an area of functions/ holds that area's one entity (`persons()`: ENTITY.person)
 * or it names the area, not its records (`webhooks()` held only configurations); and a
 * folder is named for the ports it declares (one of them begins with its name), so
 * `webhook-configurations/` declares `webhookConfigurations()`.
 */
function portNameProblems(ports: readonly Port[], areas: readonly string[], entities: readonly string[]): string[] {
  const namedForArea = ports
    .filter((port) => areas.includes(kebab(port.name)) && !entities.includes(port.name.replace(/s$/, '')))
    .map(
      (port) =>
        `the port ${port.name}() is named for the area functions/${kebab(port.name)}/, not for the records it holds: ` +
        'name it for them (as webhookConfigurations() holds webhook configurations), and its folder to match',
    );
  const folders = [...new Set(ports.map((port) => port.folder))];
  const misnamedFolders = folders.flatMap((folder) => {
    const held = ports.filter((port) => port.folder === folder);
    if (held.some((port) => port.name.startsWith(camel(folder)))) return [];
    const declared = held.map((port) => `${port.name}()`).join(', ');
    return [
      `functions/shared/db/${folder}/ declares ${declared}: name the folder for its port ` +
        `(${kebab(held[0]?.name ?? '')}/), as the other ports are laid out`,
    ];
  });
  return [...namedForArea, ...misnamedFolders];
}

describe('a repository port says what it holds (docs/architecture.md#one-word-per-idea-webhooks)', () => {
  const dbRoot = join(REPO_ROOT, 'functions', 'shared', 'db');
  const ports: Port[] = readdirSync(dbRoot)
    .filter((folder) => existsSync(join(dbRoot, folder, 'index.ts')))
    .flatMap((folder) =>
      [
        ...readFileSync(join(dbRoot, folder, 'index.ts'), 'utf8').matchAll(
          /export const (\w+) = \/\* @__PURE__ \*\/ port\(/g,
        ),
      ].map((match) => ({ name: match[1] as string, folder })),
    );

  it('names every port for its records, not its area, and its folder for it', () => {
    expect(ports.map((port) => port.name)).toContain('webhookConfigurations');
    expect(portNameProblems(ports, AREAS, Object.keys(ENTITY))).toEqual([]);
  });

  it('says the way out when a port is named for its area or sits in a folder named otherwise', () => {
    const entities = ['person', 'webhookConfiguration'];
    expect(portNameProblems([{ name: 'webhooks', folder: 'webhooks' }], ['persons', 'webhooks'], entities)).toEqual([
      'the port webhooks() is named for the area functions/webhooks/, not for the records it holds: name it for ' +
        'them (as webhookConfigurations() holds webhook configurations), and its folder to match',
    ]);
    expect(portNameProblems([{ name: 'webhookConfigurations', folder: 'webhooks' }], ['webhooks'], entities)).toEqual([
      'functions/shared/db/webhooks/ declares webhookConfigurations(): name the folder for its port ' +
        '(webhook-configurations/), as the other ports are laid out',
    ]);
    expect(portNameProblems([{ name: 'persons', folder: 'persons' }], ['persons'], entities)).toEqual([]);
  });
});

/** The most lines a source file of these roots may have, unless its header says why it needs more. */
const LIMIT = 250;
const SIZED_ROOTS = ['functions', 'lib', 'bin'] as const;
type SizedRoot = (typeof SIZED_ROOTS)[number];

/** A long file split by what it holds, the way out the rule names: a folder of one piece per file. */
interface SplitExample {
  /** How the message names it: `as <as> (<files>)`. */
  readonly as: string;
  readonly folder: string;
  readonly files: readonly string[];
}
const PERSONS_DB: SplitExample = {
  as: 'functions/shared/db/persons/ does',
  folder: 'functions/shared/db/persons',
  files: ['keys.ts', 'item.ts', 'list.ts', 'repository.ts'],
};
const STACK_PARTS: SplitExample = {
  as: 'lib/stack/ does for lib/stack.ts',
  folder: 'lib/stack',
  files: ['props.ts', 'route-functions.ts', 'monitoring.ts', 'outputs.ts'],
};
/** The example each root's message gives: one from the same side of the code. */
const SPLIT_EXAMPLE: Record<SizedRoot, SplitExample> = { functions: PERSONS_DB, lib: STACK_PARTS, bin: STACK_PARTS };

/** Why `file` breaks the size rule, in one sentence that says the way out; undefined when it keeps the rule. */
function oversize(file: string, text: string): string | undefined {
  const lines = text.trimEnd().split('\n');
  if (lines.length <= LIMIT) return undefined;
  const firstDeclaration = lines.findIndex((line) =>
    /^(export |const |let |function |class |interface |type |async )/.test(line),
  );
  const header = lines.slice(0, firstDeclaration === -1 ? lines.length : firstDeclaration).join('\n');
  if (new RegExp(`over ${LIMIT} lines`, 'i').test(header)) return undefined;
  const example = SPLIT_EXAMPLE[file.split('/')[0] as SizedRoot] ?? SPLIT_EXAMPLE.functions;
  return (
    `${file} has ${lines.length} lines, over the ${LIMIT} a source file may have: move each kind of thing it holds ` +
    `(its types or props, its keys, a family of queries, each part it joins) into its own file beside it, named for ` +
    `what it is, as ${example.as} (${example.files.join(', ')}); or, if the length is deliberate, say why in its ` +
    `header with the words "over ${LIMIT} lines".`
  );
}

// docs/architecture.md ("Where a file goes"): a file that grows past the limit usually holds
// two ideas; the rule's message says how to part them, since it fires in the middle of
// someone's unrelated change.
describe('source files', () => {
  it(`in functions/, lib/ and bin/ are at most ${LIMIT} lines, or say in their header why they are longer`, () => {
    const long = sourceFiles(REPO_ROOT, SIZED_ROOTS).flatMap((file) => {
      const found = oversize(file, readFileSync(join(REPO_ROOT, file), 'utf8'));
      return found === undefined ? [] : [found];
    });
    expect(long).toEqual([]);
  });

  it('say the way out when one is too long: split it by what it holds, or say why in its header', () => {
    const declarations = (count: number) => Array.from({ length: count }, (_, i) => `export const a${i} = ${i};`);
    const long = declarations(LIMIT + 1).join('\n');

    expect(oversize('functions/shared/db/example/repository.ts', long)).toBe(
      `functions/shared/db/example/repository.ts has ${LIMIT + 1} lines, over the ${LIMIT} a source file may have: ` +
        'move each kind of thing it holds (its types or props, its keys, a family of queries, each part it joins) ' +
        'into its own file beside it, named for what it is, as functions/shared/db/persons/ does ' +
        '(keys.ts, item.ts, list.ts, repository.ts); or, if the length is deliberate, say why in its header ' +
        `with the words "over ${LIMIT} lines".`,
    );
    expect(oversize('lib/constructs/example.ts', long)).toContain('as lib/stack/ does for lib/stack.ts (props.ts,');
    expect(
      oversize('lib/example.ts', `// over ${LIMIT} lines: one table, read top to bottom\n${long}`),
    ).toBeUndefined();
    expect(oversize('lib/example.ts', declarations(LIMIT).join('\n'))).toBeUndefined();
  });

  it('name as the way out folders that exist and hold the files they list', () => {
    const missing = [PERSONS_DB, STACK_PARTS].flatMap(({ folder, files }) =>
      files.map((file) => `${folder}/${file}`).filter((path) => !existsSync(join(REPO_ROOT, path))),
    );
    expect(missing).toEqual([]);
  });
});
