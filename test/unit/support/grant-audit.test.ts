import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import {
  GRANT_USES_DIR_ENV,
  grantProblems,
  readGrantUseNotes,
  readGrantUses,
  writeGrantUses,
} from '#test/support/grant-audit';

describe('the audit’s verdict', () => {
  const granted = ['A: GetItem on T#*', 'A: PutItem on T#*', 'B: sends to queue q', 'B: DeleteItem on T#*'];

  it('finds nothing when every permission granted is used, or unreachable for the reason given', () => {
    const used = new Set(['A: GetItem on T#*', 'A: PutItem on T#*', 'B: sends to queue q']);
    expect(grantProblems({ granted, used, unreached: { 'B: DeleteItem on T#*': 'a race' } })).toEqual([]);
  });

  it('names each permission granted and used by no test', () => {
    expect(grantProblems({ granted, used: new Set(['A: GetItem on T#*']), unreached: {} })).toEqual([
      'A: PutItem on T#*: granted, and no test of a function holding it sends it',
      'B: DeleteItem on T#*: granted, and no test of a function holding it sends it',
      'B: sends to queue q: granted, and no test of a function holding it sends it',
    ]);
  });

  it('names an UNREACHED entry a test has come to use, or no row grants', () => {
    const used = new Set(granted);
    expect(
      grantProblems({ granted, used, unreached: { 'B: DeleteItem on T#*': 'a race', 'C: Query on T#*': 'gone' } }),
    ).toEqual([
      'B: DeleteItem on T#*: on the UNREACHED list, but a test uses it',
      'C: Query on T#*: on the UNREACHED list, but no row grants it',
    ]);
  });
});

describe('the notes of a run', () => {
  let dir: string;
  let runs: string | undefined;
  beforeEach(() => {
    // This run's own notes directory is put back after: the test must not note into it.
    runs = process.env[GRANT_USES_DIR_ENV];
    dir = mkdtempSync(join(tmpdir(), 'grant-audit-test-'));
    process.env[GRANT_USES_DIR_ENV] = dir;
  });
  afterEach(() => {
    if (runs === undefined) delete process.env[GRANT_USES_DIR_ENV];
    else process.env[GRANT_USES_DIR_ENV] = runs;
    rmSync(dir, { recursive: true, force: true });
  });

  it('say which file, in which project, used what, and how long it ran', () => {
    writeGrantUses('unit', new Set(['A: GetItem on T#*']), join(REPO_ROOT, 'test/unit/a.test.ts'));
    writeGrantUses('integration', ['A: PutItem on T#*'], 'test/integration/b.test.ts');

    const notes = readGrantUseNotes().sort((x, y) => x.file.localeCompare(y.file));
    expect(notes).toEqual([
      {
        project: 'integration',
        file: 'test/integration/b.test.ts',
        ms: expect.any(Number),
        uses: ['A: PutItem on T#*'],
      },
      { project: 'unit', file: 'test/unit/a.test.ts', ms: expect.any(Number), uses: ['A: GetItem on T#*'] },
    ]);
    expect(readGrantUses()).toEqual(
      new Map([
        ['unit', new Set(['A: GetItem on T#*'])],
        ['integration', new Set(['A: PutItem on T#*'])],
      ]),
    );
  });

  it('are none when the run has no notes directory', () => {
    delete process.env[GRANT_USES_DIR_ENV];
    writeGrantUses('unit', ['A: GetItem on T#*'], 'test/unit/a.test.ts');

    expect(readGrantUseNotes(dir)).toEqual([]);
    expect(readGrantUses()).toEqual(new Map());
  });
});
