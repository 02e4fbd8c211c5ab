import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import { launch } from '#lib/local/dynamodb-local-process';
import { capturingLog } from '#test/integration/local/support';

/**
 * docs/local.md#when-dynamodb-local-dies: DynamoDB Local's port is its own. The runtime
 * takes a JVM for ready when its port answers ListTables; another program on that port (one
 * that took it while the JVM was restarting, such as a webhook receiver answering 2xx to
 * anything) must never be taken for it, or every write "succeeds" into nothing and every
 * read finds no item: a partner's accepted account answers 404.
 */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A server on `port` (a free one if 0) that answers every request 204, as a webhook receiver does. */
async function answersAnything(port = 0): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { server, port: (server.address() as { port: number }).port };
}

/** Binds `port` as soon as it is free (the JVM holding it was just killed). */
async function takeOnceFree(port: number): Promise<Server> {
  for (;;) {
    try {
      return (await answersAnything(port)).server;
    } catch {
      await sleep(5);
    }
  }
}

async function until(what: string, holds: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

/** The first port the system hands to `listen(0)`: Linux says; macOS and Windows use IANA's dynamic range. */
const RANGE = '/proc/sys/net/ipv4/ip_local_port_range';
const firstEphemeralPort = existsSync(RANGE) ? Number(readFileSync(RANGE, 'utf8').trim().split(/\s+/)[0]) : 49_152;

describe('DynamoDB Local’s port', () => {
  it('is never taken for DynamoDB Local when another program answers on it: the start fails, saying the port is in use', async () => {
    const { port } = await answersAnything();

    await expect(launch(port, undefined, 120_000)).rejects.toThrow(/port \d+ is in use|Address already in use/);
  }, 180_000);

  it('after a crash, stays down while another program holds its port, and comes back on the same data once it is free', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'local-port-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const { lines, log } = capturingLog();
    const dynamo = await startDynamoDbLocal({ dataDir, log });
    cleanups.push(() => dynamo.stop());
    // No program's listen(0) is handed it while the JVM is down; whatever takes it anyway is refused below.
    expect(dynamo.port).toBeLessThan(firstEphemeralPort);
    const client = () =>
      new DynamoDBClient({ endpoint: dynamo.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    await client().send(
      new CreateTableCommand({
        TableName: 'kept-through-the-crash',
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );

    process.kill(dynamo.pid as number, 'SIGKILL');
    const impostor = await takeOnceFree(dynamo.port);
    await until('a restart refused', () =>
      lines.some((line) => /^restarting DynamoDB Local failed/.test(line.message)),
    );
    expect(dynamo.availability.available).toBe(false);
    expect(lines.filter((line) => /is back on/.test(line.message))).toEqual([]);

    await new Promise((resolve) => impostor.close(resolve));
    await until('DynamoDB Local back', () => dynamo.availability.available);
    const { TableNames } = await client().send(new ListTablesCommand({}));
    expect(TableNames).toEqual(['kept-through-the-crash']);
  }, 300_000);
});
