import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A partner's webhook endpoint on a loopback port: answers every delivery 204 and counts
 * them, so the delivery worker's invocations end in a real HTTP exchange and the bench can
 * tell they did.
 */
export interface WebhookReceiver {
  /** Base URL, no trailing slash; any path under it receives. */
  readonly url: string;
  readonly received: () => number;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    stop: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
