import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import { stateDir } from '#lib/local/state-dir';
import { REPO_ROOT } from '#lib/repo-root';
import { api } from '#test/integration/harness';
import { letters, personBody } from '#test/integration/persons/support';
import { startReceiver } from '#test/integration/webhooks/receiver';

/**
 * docs/local.md#what-survives-a-crash: `npm start` with DATA_DIR, killed with SIGKILL while
 * work is queued, carries on where it stopped when started again on the same DATA_DIR, as
 * the AWS side does with SQS: every account and person settles and every stored event
 * reaches the partner. The runtime runs in a child process (its own process group, killed
 * whole) on the run's DynamoDB Local, whose table outlives it as a persisted one would.
 */
const ACCOUNTS = 60;
const PERSONS = 40;
const CONCURRENCY = 10;
const TENANT = 'tenant-crash';
const tableName = `test-${randomUUID()}`;

let dataDir: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'local-crash-'));
  receiver = await startReceiver(() => 204);
});
afterAll(async () => {
  if (child) killGroup(child);
  await receiver?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts the fixture runtime in a process group of its own; resolves with its URL. */
async function startChild(queueWorkerDelayMs: number): Promise<string> {
  const started = spawn(join(REPO_ROOT, 'node_modules/.bin/tsx'), ['test/integration/fixtures/crash-runtime.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DYNAMO_ENDPOINT: inject('dynamoEndpoint'),
      TABLE_NAME: tableName,
      QUEUE_WORKER_DELAY_MS: String(queueWorkerDelayMs),
      TENANT_RATE_PER_SECOND: '100000',
      TENANT_BURST: '100000',
    },
  });
  child = started;
  const lines = createInterface({ input: started.stdout! });
  return new Promise((resolve, reject) => {
    started.once('exit', (code) => reject(new Error(`the runtime exited (${code}) before serving`)));
    lines.on('line', (line) => {
      if (line.startsWith('{"url"')) resolve((JSON.parse(line) as { url: string }).url);
    });
  });
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

async function inParallel<T>(count: number, task: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    for (let n = next++; n < count; n = next++) results[n] = await task(n);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return results;
}

describe('a crash of the local runtime', () => {
  it('loses no queued work: after SIGKILL and a restart on the same DATA_DIR every account and person settles and every stored event reaches the receiver', async () => {
    const url = await startChild(2_000);
    const token = await (await LocalIssuer.persisted(stateDir(dataDir))).mint({ tenant: TENANT });
    const client = () => api({ url: currentUrl }, token);
    let currentUrl = url;

    expect((await client().post('/webhooks/secret', {})).status).toBe(200);
    const configured = await client().post('/webhooks/configurations', {
      url: receiver.url('/hooks'),
      event_types: ['subscribe_all'],
      enabled: true,
    });
    expect(configured.status).toBe(200);

    const accountIds = await inParallel(ACCOUNTS, async (n) => {
      const res = await client().post('/verify/accounts', {
        account_number: String(4_000_000_000 + n),
        routing_number: '021000021',
        account_holder_name: 'Jane Doe',
      });
      expect(res.status).toBe(200);
      return res.body.account.id as string;
    });
    const personIds = await inParallel(PERSONS, async (n) => {
      const res = await client().post('/persons', personBody({ first_name: `Jane${letters(n)}` }));
      expect(res.status).toBe(200);
      return res.body.person.id as string;
    });
    const unsettled = async () => {
      const accounts = await Promise.all(accountIds.map((id) => client().get(`/verify/accounts/${id}`)));
      const persons = await Promise.all(personIds.map((id) => client().get(`/persons/${id}`)));
      return {
        accounts: accountIds.filter((_, n) => accounts[n]?.body.account.verification_status === 'pending'),
        persons: personIds.filter((_, n) => persons[n]?.body.person.status === 'created'),
      };
    };
    // Long enough for the stream router to pass the records on (its checkpoint moves), too
    // short for the slowed workers to finish: the crash lands with work in the queues.
    await sleep(1_000);
    const atCrash = await unsettled();
    expect(atCrash.accounts.length + atCrash.persons.length).toBeGreaterThan(0);
    await killGroup(child!);

    currentUrl = await startChild(0);
    const deadline = Date.now() + 30_000;
    let left = await unsettled();
    while ((left.accounts.length > 0 || left.persons.length > 0) && Date.now() < deadline) {
      await sleep(250);
      left = await unsettled();
    }
    expect(left).toEqual({ accounts: [], persons: [] });

    const received = () => {
      const first = new Map<string, string>();
      for (const hook of receiver.received) {
        const id = String(hook.headers['webhook-id']);
        if (!first.has(id)) first.set(id, (JSON.parse(hook.body) as { event_id: string }).event_id);
      }
      return new Set(first.values());
    };
    const stored = (await client().get('/events?size=500')).body.events.map((e: { event_id: string }) => e.event_id);
    let missing = stored.filter((id: string) => !received().has(id));
    while (missing.length > 0 && Date.now() < deadline) {
      await sleep(250);
      missing = stored.filter((id: string) => !received().has(id));
    }
    expect(stored.length).toBeGreaterThanOrEqual(ACCOUNTS + PERSONS);
    expect(missing).toEqual([]);
  }, 90_000);
});
