import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  /** When the whole request had arrived (`performance.now()`): orders deliveries however slow the machine. */
  receivedAt: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Bytes of the answer's body written before the sender hung up or the body ended. */
  answerBytesSent: number;
  /** Whether the whole answer went out (its body ended); false while a streamed body runs. */
  answerComplete: boolean;
}

/**
 * What the endpoint answers one request: a status with an empty body, `'hang'` to never
 * answer, or a status with a body of `bodyBytes` (`Infinity`: a body that never ends).
 */
export type ReceiverAnswer = number | 'hang' | { status: number; bodyBytes: number };

/**
 * A partner's webhook endpoint on loopback: records every request and answers what the
 * test scripts per path. Listens on `host` (default 127.0.0.1) and `port` (default: any free one).
 */
export async function startReceiver(
  answer: (path: string, n: number) => ReceiverAnswer = () => 200,
  listen: { host?: string; port?: number } = {},
) {
  const received: ReceivedWebhook[] = [];
  const counts = new Map<string, number>();
  const hanging = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const record: ReceivedWebhook = {
        path,
        receivedAt: performance.now(),
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answerBytesSent: 0,
        answerComplete: false,
      };
      received.push(record);
      const scripted = answer(path, n);
      if (scripted === 'hang') {
        hanging.add(() => response.destroy());
        return;
      }
      if (typeof scripted === 'number') {
        response.writeHead(scripted).end(() => {
          record.answerComplete = true;
        });
        return;
      }
      streamBody(response, scripted, record);
    });
  });
  const host = listen.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(listen.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path: string) => `http://${host}:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of hanging) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes the body a chunk at a time, only as fast as the sender reads it, until it ends or the sender hangs up. */
function streamBody(response: ServerResponse, answer: { status: number; bodyBytes: number }, record: ReceivedWebhook) {
  const finite = Number.isFinite(answer.bodyBytes);
  response.writeHead(answer.status, finite ? { 'content-length': answer.bodyBytes } : {});
  let closed = false;
  response.on('close', () => {
    closed = true;
  });
  const writeMore = () => {
    while (!closed) {
      const left = answer.bodyBytes - record.answerBytesSent;
      if (left <= 0) {
        response.end(() => {
          record.answerComplete = true;
        });
        return;
      }
      const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      record.answerBytesSent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', writeMore);
        return;
      }
    }
  };
  writeMore();
}
