import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// What the local HTTP stand-ins share as servers (the STS stand-in and the IAM proxy in
// iam/, the fault proxy in faults/): a free port on loopback, a bounded body, and a stop
// that does not wait for the SDK's kept-alive connections.

/** Listens on a free port of 127.0.0.1 and resolves with the server's URL, no trailing slash. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and every connection it holds, idle or not. */
export const closeServer = (server: Server): Promise<void> =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A request's whole body; rejects past `maxBytes` (longer than its service would take), for the caller to answer. */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    request.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= maxBytes) chunks.push(chunk);
    });
    request.on('end', () =>
      length > maxBytes
        ? reject(new Error(`request body of ${length} bytes, over ${maxBytes}`))
        : resolve(Buffer.concat(chunks)),
    );
    request.on('error', reject);
  });
}

/**
 * The access key id a request is signed with (SigV4's `Authorization: AWS4-HMAC-SHA256
 * Credential=<key id>/<date>/<region>/<service>/aws4_request, …`); undefined if unsigned.
 */
export const accessKeyIdOf = (request: IncomingMessage): string | undefined =>
  /Credential=([^/,\s]+)\//.exec(request.headers.authorization ?? '')?.[1];
