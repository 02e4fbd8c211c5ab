import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Take } from '#domain/token-bucket';
import { handler as create } from '#functions/verify-accounts/handlers/create';
import { TenantScopedDocumentClient } from '#shared/db/tenant-access/document-client';
import { resetDependencies, setDependencies } from '#shared/dependencies';
import { DigestKey } from '#shared/digest/digest-key';
import { httpEvent, invoke, lambdaContext } from '#test/support/http-events';
import { captureLogs } from '#test/support/logs';
import { TEST_FIELD_CIPHER } from '#test/support/records';

/**
 * A table that throttles through the SDK's own retries (4 attempts, a throttle's backoff up
 * to 1 s, 2 s, 4 s) makes one call last up to 7 s, and a route makes several: the function's
 * 10 s run out and API Gateway answers its own 500, which tells the partner nothing. The
 * handlers' table calls are bounded by the invocation's time instead, so the service
 * answers `503 service_unavailable` with `Retry-After` itself (docs/api.md#retrying).
 *
 * The handlers' real client meets the throttles here (the SDK's retries and backoff run),
 * on a stopped clock moved on by the test: nothing waits for real time.
 */
process.env.TABLE_NAME = 'test-table';
const logs = captureLogs();

/** The API functions' timeout (lib/service), as Lambda counts it down in `getRemainingTimeInMillis`. */
const FUNCTION_TIMEOUT_MS = 10_000;
/** What API Gateway answers when the function runs out of time: its own 500, no contract body. */
const GATEWAY_500 = {
  statusCode: 500,
  headers: {} as Record<string, string>,
  body: { message: 'Internal Server Error' },
};

type Operation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'TransactWriteItems';

/**
 * DynamoDB on the wire, as the SDK's request handler meets it: each call's first
 * `throttled(operation, body)` attempts are answered `ThrottlingException` (Infinity: every
 * attempt), the rest as an empty table answers, but for the client id's tenant alias.
 */
class ThrottlingTable {
  readonly attempts: { operation: Operation; body: string }[] = [];

  constructor(private readonly throttled: (operation: Operation, body: string) => number) {}

  async handle(request: { headers: Record<string, string>; body?: unknown }) {
    const operation = String(request.headers['x-amz-target']).split('.')[1] as Operation;
    const body = String(request.body ?? '');
    const attempt = Number(/attempt=(\d+)/.exec(request.headers['amz-sdk-request'] ?? '')?.[1] ?? 1);
    this.attempts.push({ operation, body });
    if (attempt <= this.throttled(operation, body)) {
      return answer(400, {
        __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
        message: 'Throughput exceeds the current capacity of your table or index.',
      });
    }
    if (operation === 'GetItem' && body.includes('"CLIENT#')) {
      return answer(200, { Item: { tenant: { S: JSON.parse(body).Key.pk.S.slice('CLIENT#'.length) } } });
    }
    if (operation === 'Query') return answer(200, { Items: [], Count: 0, ScannedCount: 0 });
    return answer(200, {});
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs() {
    return {};
  }
}

const answer = (statusCode: number, body: unknown) => ({
  response: {
    statusCode,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: new TextEncoder().encode(JSON.stringify(body)),
  },
});

/** The handlers' client, as `documentClient()` builds it, over `table`. */
const handlersClientOver = (table: ThrottlingTable) =>
  new TenantScopedDocumentClient(
    new DynamoDBClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      requestHandler: table,
    }),
    { translateConfig: { marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false } } },
  );

let table: ThrottlingTable;
const given = (throttled: (operation: Operation, body: string) => number) => {
  table = new ThrottlingTable(throttled);
  setDependencies({ documentClient: handlersClientOver(table) });
};

let clients = 0;
/** `POST /verify/accounts` with a key, from a client id of its own, so no warm container's cache serves its tenant. */
const createRequest = () =>
  httpEvent({
    method: 'POST',
    path: '/verify/accounts',
    routeKey: 'POST /verify/accounts',
    headers: { 'Idempotency-Key': `key-${++clients}` },
    claims: { client_id: `partner-budget-${clients}`, scope: 'verify-service/write:verify-accounts' },
    body: { account_number: '123456789', routing_number: '021000021', account_holder_name: 'Jane Doe' },
  });

/**
 * The invocation as Lambda and API Gateway run it: the handler's answer, or API Gateway's
 * own 500 if the function's time runs out first. The stopped clock is moved on through the
 * whole timeout.
 */
async function answerThroughGateway(event: ReturnType<typeof createRequest>) {
  const answered = invoke(create, event, lambdaContext({ remainingMs: FUNCTION_TIMEOUT_MS }));
  const timedOut = new Promise<typeof GATEWAY_500>((resolve) =>
    setTimeout(() => resolve(GATEWAY_500), FUNCTION_TIMEOUT_MS),
  );
  const first = Promise.race([answered, timedOut]);
  await advanceClock(FUNCTION_TIMEOUT_MS);
  return first;
}

/**
 * Moves the stopped clock on by `ms`, a little at a time, letting the event loop turn in
 * between: the SDK loads its error handling on the first error it meets, which takes a
 * turn of the real loop.
 */
async function advanceClock(ms: number, step = 10): Promise<void> {
  for (let moved = 0; moved < ms; moved += step) {
    await vi.advanceTimersByTimeAsync(step);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2026-01-16T15:30:00.000Z') });
  // The SDK's backoff is a random share of its base: the longest, so the test does not depend on a draw.
  vi.spyOn(Math, 'random').mockReturnValue(0.999);
  setDependencies({
    digestKey: new DigestKey(Buffer.alloc(32, 7)),
    fieldCipher: TEST_FIELD_CIPHER,
    rateLimits: {
      take: async (): Promise<Take> => ({ allowed: true, next: { tokens: 0, atMs: Date.now() } }),
    } as never,
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  resetDependencies();
});

describe('a route whose table throttles', () => {
  it('answers 503 service_unavailable with Retry-After within its time when every call needs the SDK’s last attempt', async () => {
    given(() => 3);

    const res = await answerThroughGateway(createRequest());

    expect(res.statusCode).toBe(503);
    expect(res.body).toMatchObject({ error_code: 'service_unavailable' });
    expect(res.headers['retry-after']).toBe('1');
  });

  it('answers 503 with Retry-After within its time when the Idempotency-Key cannot be released in it either', async () => {
    // The key is claimed at once; the verification slots' read and the key's release meet a throttling table.
    given((operation, body) =>
      operation === 'Query' ? Number.POSITIVE_INFINITY : operation === 'DeleteItem' && body.includes('IDEM#') ? 3 : 0,
    );

    const res = await answerThroughGateway(createRequest());

    expect(res.statusCode).toBe(503);
    expect(res.body).toMatchObject({ error_code: 'service_unavailable' });
    expect(res.headers['retry-after']).toBe('1');
    expect(table.attempts.some(({ operation, body }) => operation === 'DeleteItem' && body.includes('IDEM#'))).toBe(
      true,
    );
    expect(logs.some((line) => line.message === 'idempotency record not updated')).toBe(true);
  });
});
