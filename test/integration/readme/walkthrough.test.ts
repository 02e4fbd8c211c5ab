import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import type { LocalRuntime } from '#lib/local/runtime';
import { REPO_ROOT } from '#lib/repo-root';
import { startTestRuntime } from '../harness';

/**
 * The README's walkthrough, run as written: its shell blocks, in order, in one bash, against
 * a running service. Only the addresses change (the runtime's and the receiver's free
 * ports instead of 3000 and 4000) and the README's one-second pauses are stretched, because
 * a CI machine running every test file at once is slower than a newcomer typing.
 */

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

/** The ```sh blocks between the walkthrough's heading and the next section. */
function walkthroughScript(): string {
  const start = README.indexOf('## Walkthrough');
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs the script as a script: bash without a terminal, in a process group of its own that
 * is ended when bash exits, in case a failing script leaves something behind. The README's
 * `set -m` puts the receiver in a group of its own, which its `kill -TERM -$RECEIVER` must
 * end by itself (killing npm alone would leave the receiver's Node.js process running).
 */
async function runBash(script: string, env: NodeJS.ProcessEnv) {
  const bash = spawn('bash', ['-eo', 'pipefail', '-c', script], { cwd: REPO_ROOT, env, detached: true });
  let stdout = '';
  let stderr = '';
  bash.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  bash.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => process.kill(-(bash.pid as number), 'SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => bash.on('exit', resolve));
  clearTimeout(timer);
  try {
    process.kill(-(bash.pid as number), 'SIGTERM');
  } catch {
    // the group is gone already
  }
  return { code, stdout, stderr };
}

/** Whether every process of the group has exited within `withinMs`. */
async function processGroupEnds(group: number, withinMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    try {
      process.kill(-group, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Ends what is left of a group the script started (none when the README's kill worked). */
function killGroup(group: number): void {
  if (!Number.isInteger(group) || group <= 1) return;
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

let runtime: LocalRuntime;
let dataDir: string;

beforeAll(async () => {
  // `npm run token` signs with the key in DATA_DIR; the runtime trusts the same key.
  dataDir = mkdtempSync(join(tmpdir(), 'verify-readme-'));
  runtime = await startTestRuntime({ issuer: await LocalIssuer.persisted(dataDir) });
});

afterAll(async () => {
  await runtime?.stop();
});

describe('README walkthrough', () => {
  it('has the steps it promises: token, secret and receiver, account, person, events', () => {
    const script = walkthroughScript();
    for (const step of [
      'npm run --silent token',
      'npm run --silent receiver &',
      'RECEIVER=$!',
      'kill -TERM -$RECEIVER',
      '/webhooks/configurations',
      '/verify/accounts',
      '/persons',
      '/local/sanctions/entries',
      '/redeliver',
    ]) {
      expect(script).toContain(step);
    }
  });

  it('runs as written: a valid account, a verified then restricted person, signed deliveries, a redelivery', async () => {
    const receiverPort = await freePort();
    const script = walkthroughScript()
      .replaceAll('http://127.0.0.1:3000', runtime.url)
      .replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`)
      // The receiver's process group, for the test to check that the README's last line ends it.
      .replace(/^RECEIVER=\$!$/m, (line) => `${line}\necho "receiver-group=$RECEIVER"`)
      // A reader starts the receiver long before the first event; a loaded machine may take
      // seconds to, so the test waits for it to listen rather than lose the first deliveries'
      // quick retries to a closed port.
      .replace(
        /^npm run --silent receiver &$/m,
        (line) =>
          `${line}\nfor _ in $(seq 120); do (exec 3<>/dev/tcp/127.0.0.1/${receiverPort}) 2>/dev/null && break; sleep 0.5; done`,
      )
      // The README waits a second for the pipeline, where a reader is slower still; a loaded
      // machine may need longer, so the test drops the fixed waits and waits, up to 30 s, until
      // each read answers what its comment says, and until the event log holds the event read.
      .replaceAll(/^sleep 1\n/gm, '')
      .replaceAll(
        /^(curl (?:(?! -X ).)+?)\s+# (\S+)$/gm,
        (_, command: string, answer: string) =>
          `for _ in $(seq 60); do [ "$(${command} 2>/dev/null)" = "${answer}" ] && break; sleep 0.5; done\n${command}`,
      )
      .replace(
        /^EVENT=\$\((.+)\)$/m,
        (line, command: string) =>
          `for _ in $(seq 60); do (${command}) >/dev/null 2>&1 && break; sleep 0.5; done\n${line}`,
      );
    expect(script).not.toMatch(/^sleep 1$/m);
    // The receiver, four commented reads and the event log: a README edit the patterns miss shows here.
    expect(script.match(/^for _ in /gm)).toHaveLength(6);

    const { code, stdout, stderr } = await runBash(script, {
      ...process.env,
      DATA_DIR: dataDir,
      RECEIVER_PORT: String(receiverPort),
    });
    const group = Number(/^receiver-group=(\d+)$/m.exec(stdout)?.[1]);
    try {
      // Stopped as the README says, in a script: npm and the Node.js process under it.
      expect(group).toBeGreaterThan(1);
      expect(await processGroupEnds(group)).toBe(true);
    } finally {
      killGroup(group);
    }
    // With job control on, bash notes the receiver's end as a job notice.
    const notice = /^\[\d+\][+-]?\s+(Terminated|Exit \d+)\s+npm run --silent receiver$/;
    expect({
      code,
      stderr: stderr.split('\n').filter((line) => !line.startsWith('npm warn') && !notice.test(line)),
    }).toEqual({ code: 0, stderr: [''] });

    const lines = stdout.split('\n');
    const answers = lines.filter(
      (line) => !line.startsWith('verified  ') && !line.startsWith('Receiving') && !line.startsWith('receiver-group='),
    );
    // The commented answers of the README, in its order (the configuration's JSON first).
    expect(answers.filter((line) => !line.startsWith('{'))).toEqual([
      'valid',
      'verified',
      'matched_watchlist',
      '204',
      '202',
      '',
    ]);
    // The receiver verified every signature it got, one line per delivery.
    const received = lines.filter((line) => line.startsWith('verified  ')).map((line) => line.split(/\s+/)[1]);
    expect(received).toEqual(
      expect.arrayContaining(['verify_account_updated', 'person_created', 'person_verified', 'person_restricted']),
    );
    expect(stdout).not.toContain('REFUSED');
  }, 120_000);
});
