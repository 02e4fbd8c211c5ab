import { expect } from 'vitest';
import { FunctionTimeoutError } from '#lib/local/lambda-invoker';
import { consoleLog, type LogLevel, type RuntimeLog } from '#lib/local/log';
import type { DeadLetterSummary } from '#lib/local/pipeline/local-queues';
import { letters, personBody } from '#test/integration/persons/support';
import type { ReceivedWebhook } from '#test/integration/webhooks/receiver';

/**
 * What the tests that run the whole service through a failure share (faults-pipeline,
 * dynamodb-supervision, pipeline/crash-restart): partners' clients creating accounts and
 * persons in lanes, an endpoint subscribed to every event, and what the partner ends up
 * with: every accepted record settled, every stored event received, nothing parked.
 */

interface Answer {
  readonly status: number;
  readonly body: any;
}

/** A client of `api()`'s shape (../harness.ts), or a retrying one (#test/support/retrying-client). */
export interface Client {
  get(path: string): Promise<Answer>;
  post(path: string, body?: unknown): Promise<Answer>;
}

/**
 * Runs `task(0)`, `task(1)`, … in `lanes` clients at once, each lane taking the next n when
 * its last is done, while n < `more` (a count), or while `more()` holds; results by n.
 */
export async function inLanes<T>(
  lanes: number,
  more: number | (() => boolean),
  task: (n: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  const goOn = typeof more === 'number' ? (n: number) => n < more : () => more();
  let next = 0;
  const lane = async () => {
    for (let n = next++; goOn(n); n = next++) results[n] = await task(n);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

/** The tenant's signing secret and one configuration that sends every event to `url`. */
export async function subscribeToEverything(client: Client, url: string): Promise<void> {
  expect((await client.post('/webhooks/secret', {})).status).toBe(200);
  const configured = await client.post('/webhooks/configurations', {
    url,
    event_types: ['subscribe_all'],
    enabled: true,
  });
  expect(configured.status).toBe(200);
}

/** Creates verify account `n` (an account number of its own, verified `valid` by the sandbox); its id. */
export async function createAccount(client: Client, n: number): Promise<string> {
  const res = await client.post('/verify/accounts', {
    account_number: String(4_000_000_000 + n),
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
  });
  expect(res.status).toBe(200);
  return res.body.account.id;
}

/**
 * Creates person `n` (a name of its own); its id. A retry of a create whose answer was lost
 * answers the person that create made (docs/api.md#retrying): the client sends every retry
 * with the same `Idempotency-Key`.
 */
export async function createPerson(client: Client, n: number): Promise<string> {
  const res = await client.post('/persons', personBody({ first_name: `Jane${letters(n)}` }));
  expect(res.status).toBe(200);
  return res.body.person.id;
}

/**
 * How long the pipeline may take to settle a record once it is accepted (verified or
 * identified, and told: through the faults, after a crash, after the database is back)
 * before a test calls it stuck. Up to 80 ms a record was measured here while other runs
 * loaded both cores (55 ms after the crash), so six times that.
 */
export const SETTLE_MS_PER_RECORD = 500;

export interface Records {
  readonly accounts: readonly string[];
  readonly persons: readonly string[];
}

/** Those of the records not settled yet: accounts still `pending`, persons still `created`. */
export async function unsettled(reader: Client, records: Records): Promise<{ accounts: string[]; persons: string[] }> {
  const accounts = await inLanes(4, records.accounts.length, async (n) => {
    const path = `/verify/accounts/${records.accounts[n]}`;
    return recordOf(path, await reader.get(path), 'account').verification_status === 'pending';
  });
  const persons = await inLanes(4, records.persons.length, async (n) => {
    const path = `/persons/${records.persons[n]}`;
    return recordOf(path, await reader.get(path), 'person').status === 'created';
  });
  return {
    accounts: records.accounts.filter((_, n) => accounts[n]),
    persons: records.persons.filter((_, n) => persons[n]),
  };
}

/** The record a read answered (`body[wrapper]`); a read that did not answer one fails with the whole answer. */
function recordOf(path: string, res: Answer, wrapper: string): any {
  if (res.status !== 200 || res.body?.[wrapper] === undefined) {
    throw new Error(`GET ${path} answered ${res.status} ${JSON.stringify(res.body)}, not the ${wrapper} created`);
  }
  return res.body[wrapper];
}

/** How many messages each dead-letter queue holds, the empty ones left out. */
export const parked = (deadLetters: readonly DeadLetterSummary[]): Record<string, number> =>
  Object.fromEntries(deadLetters.filter(({ count }) => count > 0).map(({ queue, count }) => [queue, count]));

/** How many times each event reached the endpoint, by `webhook-id` (the event's id). */
export function deliveriesPerEvent(received: readonly ReceivedWebhook[]): Map<string, number> {
  const deliveries = new Map<string, number>();
  for (const hook of received) {
    const id = String(hook.headers['webhook-id']);
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
  }
  return deliveries;
}

export interface LogLine {
  readonly level: LogLevel;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

/** The runtime's log, kept for the test to read; warnings and errors are printed too, so a failure shows why. */
export function capturingLog(): { lines: LogLine[]; log: RuntimeLog } {
  const lines: LogLine[] = [];
  const print = consoleLog('warn');
  return {
    lines,
    log: (level, message, details) => {
      lines.push({ level, message, ...(details && { details }) });
      print(level, message, details);
    },
  };
}

/**
 * Why functions failed, as the gateway logged it when it answered API Gateway's own 500,
 * leaving out the functions that ran out of time: on a machine this loaded a function may
 * outlive its 10 s (it would in AWS too, and a partner retries the 500,
 * docs/api.md#retrying), but one that throws is an error of the service.
 */
export const functionFailures = (lines: readonly LogLine[]): string[] =>
  lines
    .filter((line) => line.level === 'error' && / failed$/.test(line.message))
    .filter((line) => !(line.details?.error instanceof FunctionTimeoutError))
    .map((line) => `${line.message}: ${String(line.details?.error)}`);
