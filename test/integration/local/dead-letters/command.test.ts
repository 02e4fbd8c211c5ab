import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '#test/integration/harness';
import { runCommand } from '#test/support/commands';
import { deadLetteredAccount, givenUpAccount, OutageInvoker } from '#test/support/dead-letters';

/**
 * docs/local.md#dead-letters: `npm run dead-letters` (bin/dead-letters.ts) lists the dead
 * letters of a running `npm start` and, with `--redrive <queue>` or `--all`, redrives them
 * through its endpoints, and with `--replay <sequence number>` replays the stream batch
 * given up that starts there; without a runtime to talk to it says so in one line.
 */
const invoker = new OutageInvoker();
let runtime: LocalRuntime;
let partner: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime({ invoker, screeningLists: false, log: () => {} });
  partner = api(runtime, await runtime.mintToken('tenant-dead-letters-command'));
});
afterAll(() => runtime?.stop());

/** Runs the command as `npm run dead-letters -- <args>` does; resolves whatever its exit code. */
const deadLetters = (...args: string[]) => runCommand('dead-letters.ts', args);

const accountStatus = async (id: string) =>
  (await partner.get(`/verify/accounts/${id}`)).body.account.verification_status;

describe('npm run dead-letters', () => {
  it('lists a dead-lettered message by id, without its body, and redrives its queue with --redrive: the account settles', async () => {
    const id = await deadLetteredAccount(runtime, invoker, partner);
    const [parked] = runtime.queues.deadLetterQueue('verification').contents();

    const listing = await deadLetters('--url', runtime.url);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toContain(
      `verification: 1 message(s) in VerificationDeadLetter, the oldest ${parked?.messageId}`,
    );
    expect(listing.stdout).toContain(`npm run dead-letters -- --redrive verification --url ${runtime.url}`);
    expect(listing.stdout).not.toContain(id);

    invoker.down.clear();
    const redriven = await deadLetters('--url', runtime.url, '--redrive', 'verification');
    expect(redriven).toMatchObject({ code: 0, stderr: '' });
    expect(redriven.stdout.trim()).toBe('verification: 1 message(s) moved back to their queue, each as a new message');
    await runtime.settle();
    expect(runtime.queues.deadLetterQueue('verification').size).toBe(0);
    expect(await accountStatus(id)).not.toBe('pending');
  });

  it('redrives every queue holding dead letters with --all', async () => {
    const id = await deadLetteredAccount(runtime, invoker, partner);
    invoker.down.clear();

    const redriven = await deadLetters('--url', runtime.url, '--all');

    expect(redriven).toMatchObject({ code: 0, stderr: '' });
    expect(redriven.stdout.trim()).toBe('verification: 1 message(s) moved back to their queue, each as a new message');
    await runtime.settle();
    expect(await accountStatus(id)).not.toBe('pending');
  });

  it('says in one line that an unknown queue is none of the runtime’s, and exits 1', async () => {
    const answer = await deadLetters('--url', runtime.url, '--redrive', 'nope');

    expect(answer.code).toBe(1);
    expect(answer.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^unknown_queue: the queue is none of verification, statementCodeEmails, /),
    ]);
  });

  it('lists a stream batch given up with the way to replay it, and replays it with --replay: the account is verified', async () => {
    const { id, failure } = await givenUpAccount(runtime, invoker, partner);
    const { startSequenceNumber, batchSize } = failure.batchInfo;

    const listing = await deadLetters('--url', runtime.url);
    expect(listing.stdout).toContain(`npm run dead-letters -- --replay ${startSequenceNumber} --url ${runtime.url}`);

    invoker.down.clear();
    const replayed = await deadLetters('--url', runtime.url, '--replay', startSequenceNumber);
    expect(replayed).toMatchObject({ code: 0, stderr: '' });
    expect(replayed.stdout.trim()).toMatch(
      new RegExp(`^StreamRouter from ${startSequenceNumber}: replayed ${batchSize} record\\(s\\) to StreamRouter`),
    );
    await runtime.settle();
    expect(await accountStatus(id)).not.toBe('pending');

    const again = await deadLetters('--url', runtime.url, '--replay', startSequenceNumber);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      `no stream batch given up at ${runtime.url} starts at ${startSequenceNumber}: npm run dead-letters lists them`,
    );
  });

  it('says in one line that no runtime answers at the URL, and exits 1', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));

    const answer = await deadLetters('--url', `http://127.0.0.1:${port}`);

    expect(answer.code).toBe(1);
    expect(answer.stderr.trim()).toBe(
      `no local runtime answers at http://127.0.0.1:${port}: start one with npm start, or name its URL with --url`,
    );
  });
});
