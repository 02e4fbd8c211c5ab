import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GRANT_USES_DIR_ENV } from '#test/support/grant-audit';

/**
 * One directory per test run for the permissions each test file's functions used
 * (test/support/grant-audit.ts). Set before any worker starts, so every worker inherits it;
 * removed when the run ends.
 */
export default function grantUsesDir(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'verify-grant-uses-'));
  process.env[GRANT_USES_DIR_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
