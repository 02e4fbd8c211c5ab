import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { LogLevel } from '#lib/local/log';
import type { LocalRuntime } from '#lib/local/runtime';
import { QUEUES, type QueueId } from '#shared/queue/message-queue';
import { api, startTestRuntime } from '#test/integration/harness';
import { letters, personBody } from '#test/integration/persons/support';
import { startReceiver } from '#test/integration/webhooks/receiver';
import { everyEventId } from '#test/support/pages';
import { retryingClient } from '#test/support/retrying-client';

/**
 * docs/local.md#when-dynamodb-local-dies: the runtime supervises the DynamoDB Local it
 * started. Killed mid-load (as the OOM killer would), it is restarted on the same DATA_DIR;
 * meanwhile requests answer 503 with Retry-After (never 500) and the pipeline waits instead
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

function capturingLog() {
  const lines: { level: LogLevel; message: string }[] = [];
  return {
    lines,
    log: (level: LogLevel, message: string) => {
      lines.push({ level, message });
      if (level === 'error' || level === 'warn') console.error(`[runtime ${level}] ${message}`);
    },
  };
}

async function startSupervised(options: { dataDir?: string; onDatabaseLost?: (error: Error) => void }) {
  const captured = capturingLog();
  // No dynamoEndpoint: the runtime starts (and supervises) a DynamoDB Local of its own.
  const runtime = await startTestRuntime({ dynamoEndpoint: undefined, log: captured.log, ...options });
  cleanups.push(() => runtime.stop());
  const supervised = runtime.dynamoDbLocal;
  if (!supervised?.pid) throw new Error('the runtime did not start a DynamoDB Local of its own');
  return { runtime, supervised, lines: captured.lines };
}

/** Waits (bounded) until `check` holds; the pipeline is event-driven, so this is short once it does. */
async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(200);
  }
}

function deadLetters(runtime: LocalRuntime): Record<string, number> {
  const parked: Record<string, number> = {};
  for (const id of Object.keys(QUEUES) as QueueId[]) {
    const size = runtime.queues.deadLetterQueue(id).size;
    if (size > 0) parked[id] = size;
  }
  return parked;
}

describe('DynamoDB Local dies under load', () => {
  it('with DATA_DIR: restarted on the same data, 503 with Retry-After meanwhile and no 500, and every accepted record settles and is told', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'local-supervised-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const receiver = await startReceiver(() => 204);
    cleanups.push(() => receiver.close());
    const { runtime, supervised, lines } = await startSupervised({ dataDir });
    const client = retryingClient(api(runtime, await runtime.mintToken(TENANT)));

    expect((await client.post('/webhooks/secret', {})).status).toBe(200);
    const configured = await client.post('/webhooks/configurations', {
      url: receiver.url('/hooks'),
      event_types: ['subscribe_all'],
      enabled: true,
    });
    expect(configured.status).toBe(200);

    const accounts: string[] = [];
    const persons: string[] = [];
    const killedPid = supervised.pid;
    let killed = false;
    let acceptedAfterRestart = 0;
    const lane = async (laneNo: number) => {
      for (let n = 0; acceptedAfterRestart < AFTER_RESTART; n++) {
        const restarted = killed && supervised.availability.available;
        const seq = laneNo * 1_000 + n;
        if (seq % 2 === 0) {
          const res = await client.post('/verify/accounts', {
            account_number: String(6_000_000_000 + seq),
            routing_number: '021000021',
            account_holder_name: 'Jane Doe',
          });
          expect(res.status).toBe(200);
          accounts.push(res.body.account.id);
        } else {
          const body = personBody({ first_name: `Jane${letters(seq)}` });
          const res = await client.post('/persons', body);
          if (res.status === 409 && res.body.error_code === 'duplicate_customer_reference_id') {
            // The first try created it, but the database died before its answer was kept
            // (api.md#retrying: the request may have taken effect); a partner finds it by reference.
            const found = await client.get(`/persons?customer_reference_id=${body.customer_reference_id}`);
            expect(found.body.persons).toHaveLength(1);
            persons.push(found.body.persons[0].id);
          } else {
            expect(res.status).toBe(200);
            persons.push(res.body.person.id);
          }
        }
        if (restarted) acceptedAfterRestart++;
        if (!killed && accounts.length + persons.length >= BEFORE_KILL) {
          killed = true;
          process.kill(killedPid as number, 'SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));

    // It was noticed and said in one line, restarted as another process, and came back.
    expect(supervised.pid).not.toBe(killedPid);
    const died = lines.filter((line) => /exited unexpectedly/.test(line.message));
    expect(died).toEqual([
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

    // The gap was answered 503 with Retry-After, never 500.
    const statuses = client.answers.map((answer) => answer.status);
    expect(statuses).not.toContain(500);
    const unavailable = client.answers.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) {
      expect(answer).toMatchObject({ errorCode: 'service_unavailable', retryAfter: '1' });
    }

    // Every accepted record settles, with nothing parked.
    const reader = retryingClient(api(runtime, await runtime.mintToken(TENANT)));
    const unsettled = async () => {
      const pendingAccounts: string[] = [];
      for (const id of accounts) {
        const res = await reader.get(`/verify/accounts/${id}`);
        if (res.body.account.verification_status === 'pending') pendingAccounts.push(id);
      }
      const createdPersons: string[] = [];
      for (const id of persons) {
        const res = await reader.get(`/persons/${id}`);
        if (res.body.person.status === 'created') createdPersons.push(id);
      }
      return { accounts: pendingAccounts, persons: createdPersons };
    };
    await runtime.settle(60_000);
    expect(await unsettled()).toEqual({ accounts: [], persons: [] });
    expect(deadLetters(runtime)).toEqual({});
    expect(runtime.streamFailures).toEqual([]);

    // Every stored event reached the partner.
    const delivered = () =>
      new Set(receiver.received.map((hook) => (JSON.parse(hook.body) as { event_id: string }).event_id));
    const stored = await everyEventId(reader);
    expect(stored.length).toBeGreaterThanOrEqual(accounts.length + persons.length);
    await eventually(() => stored.every((id) => delivered().has(id)), 60_000, 'every stored event delivered');
  }, 300_000);

  it('in memory: the data is gone, so the runtime says so and gives up', async () => {
    const lost: Error[] = [];
    const { runtime, supervised, lines } = await startSupervised({ onDatabaseLost: (error) => lost.push(error) });
    const pid = supervised.pid as number;

    process.kill(pid, 'SIGKILL');
    await eventually(() => lost.length > 0, 10_000, 'onDatabaseLost called');

    expect(lost[0]?.message).toMatch(
      new RegExp(
        `^DynamoDB Local \\(pid ${pid}\\) exited unexpectedly \\(SIGKILL\\); its data was in memory and is gone`,
      ),
    );
    expect(lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([lost[0]?.message]);
    expect(supervised.availability.available).toBe(false);
    // Nothing restarted it.
    await sleep(500);
    expect(supervised.pid).toBe(pid);
    await runtime.stop();
  }, 120_000);
});
