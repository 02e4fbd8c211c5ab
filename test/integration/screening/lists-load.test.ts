import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * `npm run lists:load` (bin/lists-load.ts) as an operator runs it: what it refuses before
 * it reads or writes anything. (What it writes is the refresh's: lists-refresh.test.ts.)
 */
async function listsLoad(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      join(REPO_ROOT, 'node_modules/.bin/tsx'),
      ['bin/lists-load.ts', ...args],
      { cwd: REPO_ROOT, env: { ...process.env, TABLE_NAME: '' } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run lists:load', () => {
  it.each([
    ['plain HTTP', 'http://127.0.0.1:9/'],
    ['another scheme', 'ftp://127.0.0.1:9/'],
    ['no URL at all', 'sanctionslistservice.ofac.treas.gov'],
  ])('refuses a --url that is not https (%s) in one sentence, and exits 2', async (_, url) => {
    const answer = await listsLoad('--table', 'Lists', '--url', url);
    expect(answer.code).toBe(2);
    expect(answer.stdout).toBe('');
    expect(answer.stderr.trim().split('\n')).toEqual([
      `--url must be an https:// URL (OFAC's is https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/), not ${JSON.stringify(url)}`,
    ]);
  });
});
