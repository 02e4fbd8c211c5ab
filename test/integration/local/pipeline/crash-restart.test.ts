import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import type { DeadLetterSummary } from '#lib/local/pipeline/local-queues';
import { stateDir } from '#lib/local/state-dir';
import { REPO_ROOT } from '#lib/repo-root';
import type { QueueId } from '#shared/queue/message-queue';
import { CRASH_RUNTIME_LINE } from '#test/integration/fixtures/crash-runtime-protocol';
import { api } from '#test/integration/harness';
import {
  createAccount,
  createPerson,
  deliveriesPerEvent,
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
 * docs/local.md#what-survives-a-crash: `npm start` with DATA_DIR, killed with SIGKILL while
 * work is queued, carries on where it stopped when started again on the same DATA_DIR, as
 * the AWS side does with SQS: every account and person settles and every stored event
 * reaches the partner. The runtime runs in a child process (its own process group, killed
 * whole) on the run's DynamoDB Local, whose table outlives it as a persisted one would.
 *
 * Nothing here waits a set time. Before the crash the queue workers are held, so the crash
 * lands, on any machine, after the stream router has passed every record on and before
 * any of them is worked on; after it the child settles (runtime.settle) within a budget
 * that follows from the records. Partners' clients retry as docs/api.md#retrying says: a
 * request the loaded machine answers 500 (the function's time ran out) is sent again with
 * its Idempotency-Key, and the test holds the service to what they end up with.
 */
const ACCOUNTS = 60;
const PERSONS = 40;
const LANES = 10;
const TENANT = 'tenant-crash';
const tableName = `test-${randomUUID()}`;

const SETTLE_BUDGET_MS = (ACCOUNTS + PERSONS) * SETTLE_MS_PER_RECORD;
/** The settling, and the default test budget for each of the rest: two starts, the creations, the reads. */
const TEST_BUDGET_MS = SETTLE_BUDGET_MS + 4 * 30_000;

let dataDir: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'local-crash-'));
  receiver = await startReceiver(() => 204);
});
afterAll(async () => {
  if (child) await killGroup(child);
  await receiver?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** What test/integration/fixtures/crash-runtime.ts says on stdout, one JSON object a line. */
interface Said {
  readonly url?: string;
  readonly sent?: Partial<Record<QueueId, number>>;
  readonly settled?: boolean;
  readonly error?: string;
  readonly deadLetters?: DeadLetterSummary[];
  readonly streamFailures?: number;
}

/** Starts the fixture runtime in a process group of its own, once it serves. */
async function startChild(queueWorkers: 'held' | 'running') {
  const started = spawn(join(REPO_ROOT, 'node_modules/.bin/tsx'), ['test/integration/fixtures/crash-runtime.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DYNAMO_ENDPOINT: inject('dynamoEndpoint'),
      TABLE_NAME: tableName,
      QUEUE_WORKERS: queueWorkers,
      TENANT_RATE_PER_SECOND: '100000',
      TENANT_BURST: '100000',
    },
  });
  child = started;
  const said: Said[] = [];
  const waiting = new Set<() => void>();
  createInterface({ input: started.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const parsed = JSON.parse(line) as Said & { [CRASH_RUNTIME_LINE]?: boolean };
    // The protocol's lines only: a handler's log line may hold `settled` or `url` too.
    if (parsed[CRASH_RUNTIME_LINE] !== true) return;
    said.push(parsed);
    for (const check of waiting) check();
  });
  const exited = new Promise<never>((_, reject) =>
    started.once('exit', (code, signal) => reject(new Error(`the runtime exited (${signal ?? code})`))),
  );
  exited.catch(() => {}); // awaited only while waiting for a line
  /** The first line, said or to come, that `match` accepts. */
  const line = (match: (said: Said) => boolean): Promise<Said> =>
    Promise.race([
      exited,
      new Promise<Said>((resolve) => {
        const check = () => {
          const found = said.find(match);
          if (!found) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
      }),
    ]);
  const { url } = await line((said) => said.url !== undefined);
  return {
    url: url as string,
    line,
    /** runtime.settle() in the child: what it says once at rest, or why not. */
    settle: (timeoutMs: number) => {
      started.stdin!.write(`settle ${timeoutMs}\n`);
      return line((said) => said.settled !== undefined);
    },
  };
}

function killGroup(process_: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => process_.once('exit', () => resolve()));
  try {
    process.kill(-process_.pid!, 'SIGKILL');
  } catch {
    return Promise.resolve(); // already gone
  }
  return exited;
}

describe('a crash of the local runtime', () => {
  it(
    'loses no queued work: after SIGKILL and a restart on the same DATA_DIR every account and person settles and every stored event reaches the receiver',
    async () => {
      const first = await startChild('held');
      const token = await (await LocalIssuer.persisted(stateDir(dataDir))).mint({ tenant: TENANT });
      const target = { url: first.url };
      const client = retryingClient(api(target, token));

      await subscribeToEverything(client, receiver.url('/hooks'));
      const accounts = await inLanes(LANES, ACCOUNTS, (n) => createAccount(client, n));
      const persons = await inLanes(LANES, PERSONS, (n) => createPerson(client, n));
      // Every record passed on by the stream router (its checkpoint moves past them): each
      // account waits for the bank, each person for identification and its person_created
      // event for delivery. No worker finishes, so none settles before the crash.
      const queued = (sent: Said['sent'] = {}) =>
        (sent.verification ?? 0) >= ACCOUNTS &&
        (sent.identification ?? 0) >= PERSONS &&
        (sent.webhookDeliveries ?? 0) >= PERSONS;
      await first.line((said) => queued(said.sent));
      expect(await unsettled(client, { accounts, persons })).toEqual({ accounts, persons });
      await killGroup(child!);

      const second = await startChild('running');
      target.url = second.url;
      const settled = await second.settle(SETTLE_BUDGET_MS);
      expect(settled).toMatchObject({ settled: true, streamFailures: 0 });
      expect(parked(settled.deadLetters ?? [])).toEqual({});
      expect(await unsettled(client, { accounts, persons })).toEqual({ accounts: [], persons: [] });

      // At least once (docs/local.md#what-survives-a-crash): a webhook may come twice, with one webhook-id.
      const stored = await everyEventId(client);
      expect(stored.length).toBeGreaterThanOrEqual(ACCOUNTS + PERSONS);
      const deliveries = deliveriesPerEvent(receiver.received);
      expect(stored.filter((id) => !deliveries.has(id))).toEqual([]);
    },
    TEST_BUDGET_MS,
  );
});
