import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '#lib/repo-root';

/** What a command in bin/ did: its exit code and what it printed. */
export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `bin/<command>` as `npm run` does (tsx, from the repository root) with `args`;
 * resolves whatever its exit code. `env` replaces the environment when given.
 */
export async function runCommand(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<CommandRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      join(REPO_ROOT, 'node_modules/.bin/tsx'),
      [join('bin', command), ...args],
      { cwd: REPO_ROOT, ...(env && { env }) },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CommandRun;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
