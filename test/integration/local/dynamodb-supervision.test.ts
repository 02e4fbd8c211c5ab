import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, startTestRuntime } from '#test/integration/harness';
import {
  capturingLog,
  createAccount,
  createPerson,
  deliveriesPerEvent,
  functionFailures,
  inLanes,
  parked,
  SETTLE_MS_PER_RECORD,
  subscribeToEverything,
  unsettled,
} from '#test/integration/local/support';
import { startReceiver } from '#test/integration/webhooks/receiver';
import { everyEventId } from '#test/support/pages';
import { retryingClient } from '#test/support/retrying-client';

/**
 * docs/local.md#when-dynamodb-local-dies: the runtime supervises the DynamoDB Local it
 * started. Killed mid-load (as the OOM killer would), it is restarted on the same DATA_DIR;
 * meanwhile requests answer 503 with Retry-After (never the service's own 500) and the pipeline waits instead
 * of spending its retries, so once it is back every accepted record settles, every event
 * reaches the partner and nothing is parked in a dead-letter queue. In memory, the data is
 * gone: the runtime says so and gives up.
 */
const LANES = 4;
const BEFORE_KILL = 12;
const AFTER_RESTART = 12;
const TENANT = 'tenant-supervised';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function startSupervised(options: { dataDir?: string; onDatabaseLost?: (error: Error) => void }) {
  const captured = capturingLog();
  // No dynamoEndpoint: the runtime starts (and supervises) a DynamoDB Local of its own.
  const runtime = await startTestRuntime({ dynamoEndpoint: undefined, log: captured.log, ...options });
  cleanups.push(() => runtime.stop());
  const supervised = runtime.dynamoDbLocal;
  if (!supervised?.pid) throw new Error('the runtime did not start a DynamoDB Local of its own');
  return { runtime, supervised, lines: captured.lines };
}

describe('DynamoDB Local dies under load', () => {
  it('with DATA_DIR: restarted on the same data, 503 with Retry-After meanwhile and no error, and every accepted record settles and is told', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'local-supervised-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const receiver = await startReceiver(() => 204);
    cleanups.push(() => receiver.close());
    const { runtime, supervised, lines } = await startSupervised({ dataDir });
    const client = retryingClient(api(runtime, await runtime.mintToken(TENANT)));

    await subscribeToEverything(client, receiver.url('/hooks'));

    const records = { accounts: [] as string[], persons: [] as string[] };
    const killedPid = supervised.pid;
    let killed = false;
    let acceptedAfterRestart = 0;
    await inLanes(
      LANES,
      () => acceptedAfterRestart < AFTER_RESTART,
      async (n) => {
        const restarted = killed && supervised.availability.available;
        if (n % 2 === 0) records.accounts.push(await createAccount(client, n));
        else records.persons.push(await createPerson(client, n));
        if (restarted) acceptedAfterRestart++;
        if (!killed && records.accounts.length + records.persons.length >= BEFORE_KILL) {
          killed = true;
          process.kill(killedPid as number, 'SIGKILL');
        }
      },
    );

    // It was noticed and said in one line, restarted as another process, and came back.
    expect(supervised.pid).not.toBe(killedPid);
    const died = lines.filter((line) => /exited unexpectedly/.test(line.message));
    expect(died.map(({ level, message }) => ({ level, message }))).toEqual([
      {
        level: 'error',
        message: expect.stringMatching(
          new RegExp(
            `^DynamoDB Local \\(pid ${killedPid}\\) exited unexpectedly \\(SIGKILL\\); restarting it on the same data`,
          ),
        ),
      },
    ]);
    expect(lines.some((line) => /^DynamoDB Local is back on .* after [\d.]+ s; carrying on$/.test(line.message))).toBe(
      true,
    );

    // The gap was answered 503 with Retry-After, never the service's own 500. A request the
    // database died under may outlive its function's time on a loaded machine: API Gateway's
    // 500 (no error_code), retried with its key like any partner's.
    expect(client.answers.filter((answer) => answer.status === 500 && answer.errorCode !== undefined)).toEqual([]);
    expect(functionFailures(lines)).toEqual([]);
    const unavailable = client.answers.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) {
      expect(answer).toMatchObject({ errorCode: 'service_unavailable', retryAfter: '1' });
    }

    // Every accepted record settles, with nothing parked.
    const reader = retryingClient(api(runtime, await runtime.mintToken(TENANT)));
    await runtime.settle((records.accounts.length + records.persons.length) * SETTLE_MS_PER_RECORD);
    expect(await unsettled(reader, records)).toEqual({ accounts: [], persons: [] });
    expect(parked(runtime.queues.deadLetters())).toEqual({});
    expect(runtime.streamFailures).toEqual([]);

    // Every stored event reached the partner (at least once: the database died under some).
    const stored = await everyEventId(reader);
    expect(stored.length).toBeGreaterThanOrEqual(records.accounts.length + records.persons.length);
    const deliveries = deliveriesPerEvent(receiver.received);
    expect(stored.filter((id) => !deliveries.has(id))).toEqual([]);
  }, 300_000);

  it('in memory: the data is gone, so the runtime says so and gives up', async () => {
    let onDatabaseLost: (error: Error) => void = () => {};
    const lost = new Promise<Error>((resolve) => {
      onDatabaseLost = resolve;
    });
    const { runtime, supervised, lines } = await startSupervised({ onDatabaseLost: (error) => onDatabaseLost(error) });
    const pid = supervised.pid as number;

    process.kill(pid, 'SIGKILL');
    const { message } = await lost;

    expect(message).toMatch(
      new RegExp(
        `^DynamoDB Local \\(pid ${pid}\\) exited unexpectedly \\(SIGKILL\\); its data was in memory and is gone`,
      ),
    );
    expect(lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([message]);
    expect(supervised.availability.available).toBe(false);
    // Nothing restarts it: the exit is judged at once, to a restart or to this loss.
    expect(lines.filter((line) => /restart/.test(line.message))).toEqual([]);
    expect(supervised.pid).toBe(pid);
    await runtime.stop();
  }, 120_000);
});
