import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GRANT_USES_DIR_ENV, readGrantUseNotes } from '#test/support/grant-audit';
import { readGrantUseIndex, withNotes, writeGrantUseIndex } from '#test/support/grant-use-index';

/**
 * One directory per test run for the permissions each test file's functions used
 * (test/support/grant-audit.ts). Set before any worker starts, so every worker inherits it;
 * removed when the run ends, after its notes are added to the index of who used what
 * (test/support/grant-use-index.ts). One row's audit (test/audit/audit-grants.ts) names the
 * directory itself, to read the notes after the run, and removes it itself.
 */
export default function grantUsesDir(): () => void {
  const given = process.env[GRANT_USES_DIR_ENV];
  const dir = given ?? mkdtempSync(join(tmpdir(), 'verify-grant-uses-'));
  process.env[GRANT_USES_DIR_ENV] = dir;
  return () => {
    try {
      const notes = readGrantUseNotes(dir);
      if (notes.length > 0) writeGrantUseIndex(withNotes(readGrantUseIndex(), notes, Date.now()));
    } catch (error) {
      // The index only orders one row's audit: a run that cannot write it has not failed.
      console.warn(`grant-uses index not updated: ${(error as Error).message}`);
    }
    if (!given) rmSync(dir, { recursive: true, force: true });
  };
}
