import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_REGION } from '#lib/local/aws-account';
import type { DeadLettersView } from '#lib/local/dead-letters/dead-letter-endpoints';
import type { LogLevel } from '#lib/local/log';
import { LocalQueues } from '#lib/local/pipeline/local-queues';
import type { LocalRuntime } from '#lib/local/runtime';
import { QUEUE_SETTINGS } from '#lib/service/index';
import { startTestRuntime } from '#test/integration/harness';

/**
 * docs/local.md#dead-letters: dead letters an earlier run left in DATA_DIR are not news to
 * wait for an alarm about. `npm start` says at start, one line per queue holding any, how
 * many are parked and exactly how to redrive them.
 */
let dataDir: string;
let runtime: LocalRuntime;
const logged: { level: LogLevel; message: string }[] = [];
let messageId: string;
/** Three days before this run. */
const SENT_AT = Date.now() - 3 * 86_400_000;

/** What an earlier run leaves: a verification message received maxReceiveCount times, then moved. */
function leaveADeadLetter(journalPath: string): string {
  let now = SENT_AT;
  const queues = new LocalQueues({ timeScale: 1, region: LOCAL_REGION, journalPath, now: () => now });
  void queues.send('verification', [{ id: 'm', body: { tenant: 'tenant-restored', id: 'an-account' } }]);
  const { maxReceiveCount, visibilityTimeoutSeconds } = QUEUE_SETTINGS.verification;
  for (let receive = 0; receive <= maxReceiveCount; receive++) {
    queues.queue('verification').receive(1);
    now += visibilityTimeoutSeconds * 1000;
  }
  const [parked] = queues.deadLetterQueue('verification').contents();
  queues.close();
  if (!parked) throw new Error('the message was not dead-lettered');
  return parked.messageId;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'dead-letters-restored-'));
  messageId = leaveADeadLetter(join(dataDir, 'queues.jsonl'));
  runtime = await startTestRuntime({
    dataDir,
    screeningLists: false,
    consumers: [],
    log: (level, message) => logged.push({ level, message }),
  });
});
afterAll(async () => {
  await runtime?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('dead letters restored from DATA_DIR at start', () => {
  it('get one line per queue holding any: how many, the oldest by id and age, and the command and console that redrive them', () => {
    const lines = logged.filter(({ message }) => message.includes('dead letters kept from an earlier run'));

    expect(lines).toEqual([
      {
        level: 'warn',
        message:
          'dead letters kept from an earlier run: verification: 1 message(s) in VerificationDeadLetter, ' +
          `the oldest ${messageId} sent ${new Date(SENT_AT).toISOString()} (3 d ago, received 5 times); ` +
          'once the cause is fixed, redrive with ' +
          `\`npm run dead-letters -- --redrive verification --url ${runtime.url}\` ` +
          `or Redrive in ${runtime.url}/console (Dead letters)`,
      },
    ]);
  });

  it('lists them at GET /local/dead-letters', async () => {
    const answer = await fetch(`${runtime.url}/local/dead-letters`);
    const { deadLetterQueues } = (await answer.json()) as DeadLettersView;

    expect(deadLetterQueues).toContainEqual(
      expect.objectContaining({ queue: 'verification', count: 1, oldest: expect.objectContaining({ messageId }) }),
    );
  });
});
