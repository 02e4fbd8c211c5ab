import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * Every command in bin/ a person runs (`npm run <script>`) answers `--help` with its usage
 * and exit 0, before it does anything (no runtime started, no table touched, no secret
 * asked for), and an unknown option with one sentence and exit 2. bin/app.ts is the CDK
 * app (cdk.json's `app`): the CDK CLI runs it, never a person, and it takes no options.
 */
const COMMANDS = readdirSync(join(REPO_ROOT, 'bin'))
  .filter((file) => file.endsWith('.ts') && file !== 'app.ts')
  .sort();
const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');
// Counted work, not time: each run loads a command's modules (up to a few seconds when busy).
const SLOW = { timeout: 120_000 };

function run(command: string, args: string[]) {
  const result = spawnSync(TSX, [join('bin', command), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    // Nothing a command could reach: no AWS credentials, no table, no secret, a port nobody listens on.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '1', AWS_REGION: 'us-east-1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('every command in bin/', () => {
  it('is listed here: the commands a person runs', () => {
    expect(COMMANDS).toEqual([
      'dead-letters.ts',
      'lists-load.ts',
      'local.ts',
      'openapi.ts',
      'persons-reindex.ts',
      'screening-spellings.ts',
      'stream-replay.ts',
      'token.ts',
      'webhook-receiver.ts',
    ]);
  });

  it.each(COMMANDS)('%s answers --help with its usage on stdout and exit 0', SLOW, (command) => {
    const answer = run(command, ['--help']);
    expect(answer.stderr, command).toBe('');
    expect(answer.stdout, command).toMatch(/^usage: /);
    expect(answer.status, command).toBe(0);
  });

  it.each(COMMANDS)(
    '%s answers an unknown option with one sentence naming it, its usage, and exit 2',
    SLOW,
    (command) => {
      const answer = run(command, ['--no-such-option']);
      expect(answer.status, command).toBe(2);
      const [first, ...rest] = answer.stderr.trim().split('\n');
      expect(first, command).toBe('unknown option --no-such-option');
      expect(rest.join('\n'), command).toMatch(/^usage: /);
      expect(answer.stderr, command).not.toMatch(/\n\s+at /);
    },
  );
});
