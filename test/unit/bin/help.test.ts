import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * Every command a person runs (`npm run <script>`, a script that runs a file with tsx: the
 * commands in bin/ and the bench, docs and audit commands under test/) answers `--help` with
 * its usage and exit 0, before it does anything (no runtime started, no table touched, no
 * secret asked for, no file written), and an unknown option with one sentence and exit 2.
 * bin/app.ts is the CDK app (cdk.json's `app`): the CDK CLI runs it, never a person, and it
 * takes no options.
 */
const SCRIPTS: Record<string, string> = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts;
/** Each command's file, by the npm script that runs it. */
const COMMANDS = Object.entries(SCRIPTS)
  .flatMap(([script, line]) => {
    const file = /^tsx (\S+\.ts)$/.exec(line)?.[1];
    return file ? [[script, file] as const] : [];
  })
  .sort(([a], [b]) => a.localeCompare(b));
const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');
// Counted work, not time: each run loads a command's modules (up to a few seconds when busy).
const SLOW = { timeout: 120_000 };

function run(file: string, args: string[]) {
  const result = spawnSync(TSX, [file, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    // Nothing a command could reach: no AWS credentials, no table, no secret, a port nobody listens on.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '1', AWS_REGION: 'us-east-1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('every command a person runs', () => {
  it('is listed here, and every command in bin/ is among them', () => {
    expect(COMMANDS.map(([script]) => script)).toEqual([
      'audit:grants',
      'bench',
      'bench:publish',
      'dead-letters',
      'docs:sync',
      'lists:load',
      'openapi',
      'persons:reindex',
      'receiver',
      'screening:quality',
      'screening:spellings',
      'start',
      'stream:replay',
      'token',
    ]);
    const inBin = readdirSync(join(REPO_ROOT, 'bin')).filter((file) => file.endsWith('.ts') && file !== 'app.ts');
    expect(inBin.map((file) => `bin/${file}`).filter((file) => !COMMANDS.some(([, run]) => run === file))).toEqual([]);
  });

  it.each(COMMANDS)('%s (%s) answers --help with its usage on stdout and exit 0', SLOW, (script, file) => {
    const answer = run(file, ['--help']);
    expect(answer.stderr, script).toBe('');
    expect(answer.stdout, script).toMatch(/^usage: /);
    expect(answer.status, script).toBe(0);
  });

  it.each(COMMANDS)(
    '%s (%s) answers an unknown option with one sentence naming it, its usage, and exit 2',
    SLOW,
    (script, file) => {
      const answer = run(file, ['--no-such-option']);
      expect(answer.status, script).toBe(2);
      const [first, ...rest] = answer.stderr.trim().split('\n');
      expect(first, script).toBe('unknown option --no-such-option');
      expect(rest.join('\n'), script).toMatch(/^usage: /);
      expect(answer.stderr, script).not.toMatch(/\n\s+at /);
    },
  );
});
