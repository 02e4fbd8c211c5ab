import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_KEY_GENERATOR } from '#lib/constructs/data-key';
import { REPO_ROOT } from '#lib/repo-root';
import { CONSUMERS, EVERY_ROUTE } from '#lib/service/index';
import { sourceFiles } from '#test/support/import-graph';

// The naming convention docs/architecture.md states ("Where a file goes"): a function's
// entry point is `functions/<area>/handlers/<name>.ts`, and nothing else lives there; use
// cases, schemas, presenters, events and stream rules sit beside the handlers/ folder.

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
});

describe('source files', () => {
  const LIMIT = 250;
  it(`in functions/ are at most ${LIMIT} lines, or say in their header why they are longer`, () => {
    const long = sourceFiles(REPO_ROOT, ['functions']).flatMap((file) => {
      const lines = readFileSync(join(REPO_ROOT, file), 'utf8').trimEnd().split('\n');
      if (lines.length <= LIMIT) return [];
      const firstDeclaration = lines.findIndex((line) =>
        /^(export |const |let |function |class |interface |type |async )/.test(line),
      );
      const header = lines.slice(0, firstDeclaration).join('\n');
      return /over 250 lines/i.test(header) ? [] : [`${file}: ${lines.length} lines`];
    });
    expect(long).toEqual([]);
  });
});
