import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { UpstreamForwarder } from '#lib/local/upstream-forwarder';

/**
 * docs/local.md#when-dynamodb-local-dies: DynamoDB Local answers a TransactWriteItems before
 * its COMMIT has run (it queues it), so a JVM killed a moment later loses a transaction the
 * service was told was written: a partner's accepted person answered 404 after a crash.
 * The proxies in front of it pass a transaction's answer on only once a strongly consistent
 * GetItem of its first item, queued behind that COMMIT, has been answered; when that read
 * gets no answer, neither does the caller, who retries as after any lost answer.
 */
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const bodyOf = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
  });

/** A DynamoDB Local stand-in that records each call, answering GetItem with `getItemStatus`. */
async function upstream(getItemStatus: number) {
  const calls: { target: string; body: unknown }[] = [];
  const endpoint = await listen(
    createServer(async (request, response) => {
      const target = String(request.headers['x-amz-target']).split('.')[1] ?? '';
      calls.push({ target, body: JSON.parse((await bodyOf(request)).toString('utf8')) });
      response.writeHead(target === 'GetItem' ? getItemStatus : 200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end('{}');
    }),
  );
  return { calls, endpoint };
}

/** A proxy that reads each body and forwards it, as the IAM stand-in does. */
async function proxyTo(endpoint: string): Promise<string> {
  const forwarder = new UpstreamForwarder(endpoint);
  return listen(createServer(async (request, response) => forwarder.forward(request, response, await bodyOf(request))));
}

const send = (proxy: string, target: string, body: unknown) =>
  fetch(proxy, {
    method: 'POST',
    headers: { 'x-amz-target': `DynamoDB_20120810.${target}`, 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify(body),
  });

const TRANSACTION = {
  TransactItems: [
    { Put: { TableName: 'service', Item: { pk: { S: 'T#a#P#1' }, sk: { S: 'P' }, name: { S: 'Jane' } } } },
    { Update: { TableName: 'service', Key: { pk: { S: 'T#a#IDEM#k' }, sk: { S: 'IDEM' } } } },
  ],
};

describe('a transaction through the proxies', () => {
  it('is answered only after a consistent read of its first item, queued behind its commit, was answered', async () => {
    const { calls, endpoint } = await upstream(200);

    const answer = await send(await proxyTo(endpoint), 'TransactWriteItems', TRANSACTION);

    expect(answer.status).toBe(200);
    expect(calls).toEqual([
      { target: 'TransactWriteItems', body: TRANSACTION },
      {
        target: 'GetItem',
        body: {
          TableName: 'service',
          Key: { pk: { S: 'T#a#P#1' }, sk: { S: 'P' } },
          ConsistentRead: true,
          ProjectionExpression: 'pk',
        },
      },
    ]);
  });

  it('gets no answer when that read gets none: an acknowledgment the database may lose is never passed on', async () => {
    const { endpoint } = await upstream(500);

    await expect(send(await proxyTo(endpoint), 'TransactWriteItems', TRANSACTION)).rejects.toThrow();
  });

  it('leaves every other call as it is: one request, its answer passed on', async () => {
    const { calls, endpoint } = await upstream(500);

    const answer = await send(await proxyTo(endpoint), 'PutItem', { TableName: 'service', Item: {} });

    expect(answer.status).toBe(200);
    expect(calls.map((call) => call.target)).toEqual(['PutItem']);
  });
});
