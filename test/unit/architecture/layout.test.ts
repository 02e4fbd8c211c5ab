import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_KEY_GENERATOR } from '#lib/constructs/data-key';
import { REPO_ROOT } from '#lib/repo-root';
import { CONSUMERS, EVERY_ROUTE } from '#lib/service/index';
import { sourceFiles } from '#test/support/import-graph';

// The naming convention docs/architecture.md states ("Where a file goes"): a function's
// entry point is `functions/<area>/handlers/<name>.ts`, and nothing else lives there; use
// cases, schemas, presenters, events and stream rules sit beside the handlers/ folder; and
// no source file of functions/, lib/ or bin/ grows past 250 lines without saying why.

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
