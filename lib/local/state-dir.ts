import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * Where local state lives when `DATA_DIR` is not set: only the JWT signing key, so that
 * `npm run token` in another terminal signs with the key the running server trusts.
 * Git-ignored.
 */
export const DEFAULT_STATE_DIR = resolve(REPO_ROOT, '.local');

export const stateDir = (dataDir?: string): string => (dataDir ? resolve(dataDir) : DEFAULT_STATE_DIR);

/**
 * Reads a small secret file, creating it on first use. The content is written to a
 * temporary file and hard-linked into place, so a server and `npm run token` starting at
 * the same moment agree on one key and neither can read a half-written file.
 */
export async function readOrCreateFile(path: string, create: () => Promise<string>): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(path), { recursive: true });
  const content = await create();
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  try {
    await link(temporary, path);
    return content;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFile(path, 'utf8');
  } finally {
    await unlink(temporary);
  }
}
