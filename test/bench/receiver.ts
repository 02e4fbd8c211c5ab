import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook as the receiver got it. */
export interface Arrival {
  readonly webhookId: string;
  /** The event's `created_at` (epoch ms): when the change it reports was written. */
  readonly createdAt: number;
  /** When the receiver had the whole request and answered 204 (epoch ms). */
  readonly arrivedAt: number;
  readonly envelope: { event_id: string; event_type: string; created_at: string; event_data: Record<string, any> };
  /** Request line, headers and body: what crossed the wire to the partner. */
  readonly bytes: number;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>/webhooks`. */
  readonly url: string;
  /** The first arrival of each `webhook-id` (a redelivery is not counted twice). */
  readonly arrivals: ReadonlyMap<string, Arrival>;
  /** Resolves once `predicate` holds (checked at each arrival), or at `deadline` (epoch ms) with false. */
  until(predicate: () => boolean, deadline: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A partner's webhook endpoint on loopback that answers 204 at once and notes when each event arrived. */
export async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, Arrival>();
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = Date.now();
      response.writeHead(204).end();
      const webhookId = String(request.headers['webhook-id'] ?? '');
      if (arrivals.has(webhookId)) return;
      const body = Buffer.concat(chunks);
      const envelope = JSON.parse(body.toString('utf8')) as Arrival['envelope'];
      const headerBytes = request.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0);
      arrivals.set(webhookId, {
        webhookId,
        createdAt: Date.parse(envelope.created_at),
        arrivedAt,
        envelope,
        bytes: Buffer.byteLength(`${request.method} ${request.url} HTTP/1.1\r\n`) + headerBytes + 2 + body.length,
      });
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const until = (predicate: () => boolean, deadline: number) =>
    new Promise<boolean>((resolve) => {
      const check = () => {
        if (!predicate() && Date.now() < deadline) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(predicate());
      };
      const timer = setTimeout(check, Math.max(0, deadline - Date.now()));
      waiters.add(check);
      check();
    });

  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    arrivals,
    until,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
