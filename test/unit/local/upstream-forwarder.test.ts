import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback, readBody } from '#lib/local/loopback-server';
import { UpstreamForwarder } from '#lib/local/upstream-forwarder';

/** What the upstream was sent, one entry a request. */
interface Received {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
const forwarders: UpstreamForwarder[] = [];
afterEach(async () => {
  for (const forwarder of forwarders.splice(0)) forwarder.destroy();
  await Promise.all(servers.splice(0).map(closeServer));
});

/** An upstream that keeps what it is sent and answers 201 with a header and a body of its own. */
async function upstream(): Promise<{ endpoint: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    const body = (await readBody(request, 1024 * 1024)).toString('utf8');
    received.push({ method: request.method, url: request.url, headers: request.headers, body });
    response.writeHead(201, { 'content-type': 'application/x-amz-json-1.0', 'x-upstream': 'yes' });
    response.end('{"answered":true}');
  });
  servers.push(server);
  return { endpoint: await listenOnLoopback(server), received };
}

/** A loopback proxy forwarding every request to `target`, replacing its body with `replaced` when given. */
async function proxyTo(target: string, replaced?: Buffer): Promise<string> {
  const forwarder = new UpstreamForwarder(target);
  forwarders.push(forwarder);
  const server = createServer((request, response) => {
    if (replaced === undefined) return forwarder.forward(request, response);
    request.resume();
    request.on('end', () => forwarder.forward(request, response, replaced));
  });
  servers.push(server);
  return listenOnLoopback(server);
}

/** A POST through `endpoint`: the answer's status, headers and body, or the error of a dropped connection. */
function post(endpoint: string, body: string) {
  return new Promise<{ status?: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
    const url = new URL('/path?query=1', endpoint);
    const sent = httpRequest(
      url,
      { method: 'POST', headers: { 'x-amz-target': 'DynamoDB_20120810.GetItem', 'content-length': body.length } },
      async (answer) =>
        resolve({
          status: answer.statusCode,
          headers: answer.headers,
          body: (await readBody(answer, 1024 * 1024)).toString('utf8'),
        }),
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('a loopback proxy’s forwarding to its upstream', () => {
  it('sends the request on as it came, method, path, headers and streamed body, and answers with the upstream’s answer', async () => {
    const { endpoint, received } = await upstream();
    const answer = await post(await proxyTo(endpoint), '{"Key":1}');
    expect(answer).toMatchObject({ status: 201, headers: { 'x-upstream': 'yes' }, body: '{"answered":true}' });
    expect(received).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/path?query=1',
        headers: expect.objectContaining({ 'x-amz-target': 'DynamoDB_20120810.GetItem' }),
        body: '{"Key":1}',
      }),
    ]);
  });

  it('sends a body already read in place of the request’s own', async () => {
    const { endpoint, received } = await upstream();
    const answer = await post(await proxyTo(endpoint, Buffer.from('{"Key":2}')), '{"Key":2}');
    expect(answer.status).toBe(201);
    expect(received.map((r) => r.body)).toEqual(['{"Key":2}']);
  });

  it('drops the client’s connection when the upstream is gone, as DynamoDB Local stopping would', async () => {
    const gone = await upstream();
    await closeServer(servers.pop() as Server);
    await expect(post(await proxyTo(gone.endpoint), '{}')).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
