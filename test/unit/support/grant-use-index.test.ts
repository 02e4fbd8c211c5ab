import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readGrantUseIndex, withNotes, writeGrantUseIndex } from '#test/support/grant-use-index';

describe('the index of who used what', () => {
  const earlier = {
    'test/unit/a.test.ts': { project: 'unit' as const, ms: 10, at: 1, uses: ['A: GetItem on T#*'] },
    'test/unit/b.test.ts': { project: 'unit' as const, ms: 20, at: 1, uses: ['B: GetItem on T#*'] },
  };

  it('replaces the entry of each file a run noted, the union of its notes, and keeps every other', () => {
    const next = withNotes(
      earlier,
      [
        { project: 'unit', file: 'test/unit/a.test.ts', ms: 12, uses: ['A: PutItem on T#*'] },
        { project: 'unit', file: 'test/unit/a.test.ts', ms: 15, uses: ['A: Query on T#*', 'A: PutItem on T#*'] },
        { project: 'integration', file: 'test/integration/c.test.ts', ms: 900, uses: [] },
      ],
      2,
    );

    expect(next).toEqual({
      'test/unit/a.test.ts': { project: 'unit', ms: 15, at: 2, uses: ['A: PutItem on T#*', 'A: Query on T#*'] },
      'test/unit/b.test.ts': earlier['test/unit/b.test.ts'],
      'test/integration/c.test.ts': { project: 'integration', ms: 900, at: 2, uses: [] },
    });
  });

  describe('on disk', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'grant-use-index-test-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('reads back what was written, and as empty when missing or unreadable (it only ever orders the work)', () => {
      const path = join(dir, 'nested', 'grant-uses.json');
      expect(readGrantUseIndex(path)).toEqual({});

      writeGrantUseIndex(earlier, path);
      expect(readGrantUseIndex(path)).toEqual(earlier);

      writeFileSync(path, '{ half');
      expect(readGrantUseIndex(path)).toEqual({});
    });
  });
});
