import { type DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbFaultProxy, startDynamoDbFaultProxy } from '#lib/local/faults/dynamodb-fault-proxy';
import { FaultInjector } from '#lib/local/faults/fault-injector';
import { type FaultPlanInput, faultPlan } from '#lib/local/faults/fault-plan';
import { rawDynamoDbClient, rejection } from '#test/support/raw-dynamodb';
import { createTestTable } from '../harness';

/**
 * The DynamoDB fault proxy (lib/local/faults/dynamodb-fault-proxy.ts) met by the real SDK
 * client with its default retries, as a handler's client meets it: what a modest rate
 * injects the client absorbs; what every attempt meets it surfaces, classified as the SDK
 * classifies DynamoDB's own answers. A faulted request never reaches the table.
 */
let tableName: string;
let upstream: string;
let direct: DynamoDBClient;
let proxy: DynamoDbFaultProxy | undefined;
let injector: FaultInjector;

beforeAll(async () => {
  const table = await createTestTable();
  tableName = table.tableName;
  upstream = table.dynamoEndpoint;
  direct = rawDynamoDbClient(table.dynamoEndpoint);
  return () => direct.destroy();
});
afterEach(() => proxy?.stop());

/**
 * A client with the SDK's defaults (standard retry mode; for DynamoDB 4 attempts on this SDK)
 * pointed at a proxy drawing from `plan`.
 */
async function clientThroughFaults(plan: FaultPlanInput['dynamodb']): Promise<DynamoDBClient> {
  injector = new FaultInjector(faultPlan({ seed: 42, dynamodb: plan }));
  injector.arm();
  proxy = await startDynamoDbFaultProxy(upstream, () => injector.draw('dynamodb'));
  return rawDynamoDbClient(proxy.endpoint);
}

let counter = 0;
const put = (client: DynamoDBClient, pk = `faults-${++counter}`) =>
  client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk }, sk: { S: 'item' } } })).then(() => pk);
const stored = async (pk: string) =>
  (await direct.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: pk }, sk: { S: 'item' } } }))).Item;

describe('DynamoDB behind the fault proxy', () => {
  it('at 10 % of throttles, 5xx and resets, every write succeeds: the SDK retries each fault away', async () => {
    const client = await clientThroughFaults({ rate: 0.1, kinds: ['throttle', '5xx', 'reset'] });
    const written = [];
    for (let i = 0; i < 40; i++) written.push(await put(client));
    client.destroy();
    const { calls, injected } = injector.counts().dynamodb;
    const faults = Object.values(injected).reduce((sum, n) => sum + n, 0);
    expect(faults).toBeGreaterThan(0);
    // Each fault cost one more attempt, and nothing else.
    expect(calls).toBe(40 + faults);
    for (const pk of written) expect(await stored(pk)).toBeDefined();
  });

  it('surfaces a throttle that every attempt met as the SDK’s throttling error, after every attempt, nothing written', async () => {
    const client = await clientThroughFaults({ rate: 1, kinds: ['throttle'] });
    const error = await rejection(put(client, 'faults-throttled'));
    const attempts = await client.config.maxAttempts();
    client.destroy();
    expect(['ProvisionedThroughputExceededException', 'ThrottlingException']).toContain(error.name);
    expect(error).toMatchObject({ $fault: 'client', $metadata: { httpStatusCode: 400, attempts } });
    expect(injector.counts().dynamodb).toEqual({ calls: attempts, injected: { throttle: attempts } });
    expect(await stored('faults-throttled')).toBeUndefined();
  });

  it('surfaces a 5xx that every attempt met as a server fault (500 InternalServerError or 503)', async () => {
    const client = await clientThroughFaults({ rate: 1, kinds: ['5xx'] });
    const error = await rejection(put(client, 'faults-5xx'));
    const attempts = await client.config.maxAttempts();
    client.destroy();
    expect(['InternalServerError', 'ServiceUnavailable']).toContain(error.name);
    expect(error.$fault).toBe('server');
    expect([500, 503]).toContain(error.$metadata.httpStatusCode);
    expect(error.$metadata.attempts).toBe(attempts);
    expect(await stored('faults-5xx')).toBeUndefined();
  });

  it('surfaces a connection reset on every attempt as ECONNRESET, nothing written', async () => {
    const client = await clientThroughFaults({ rate: 1, kinds: ['reset'] });
    const error = await rejection(put(client, 'faults-reset'));
    const attempts = await client.config.maxAttempts();
    client.destroy();
    expect(error.code).toBe('ECONNRESET');
    expect(error.$metadata?.attempts).toBe(attempts);
    expect(injector.counts().dynamodb).toEqual({ calls: attempts, injected: { reset: attempts } });
    expect(await stored('faults-reset')).toBeUndefined();
  });

  it('holds a timed-out request for the latency and then drops it: retried, and surfaced when every attempt meets it', async () => {
    const client = await clientThroughFaults({ rate: 1, kinds: ['timeout'], latencyMs: 100 });
    const started = performance.now();
    const error = await rejection(put(client, 'faults-timeout'));
    client.destroy();
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(error.code).toBe('ECONNRESET');
    expect(await stored('faults-timeout')).toBeUndefined();
  });

  it('forwards a slow request after the latency, and it takes effect', async () => {
    const client = await clientThroughFaults({ rate: 1, kinds: ['slow'], latencyMs: 200 });
    const started = performance.now();
    const pk = await put(client);
    client.destroy();
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    expect(await stored(pk)).toBeDefined();
    expect(injector.counts().dynamodb).toEqual({ calls: 1, injected: { slow: 1 } });
  });
});
