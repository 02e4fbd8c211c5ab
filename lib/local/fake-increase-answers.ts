import type { IncomingMessage, ServerResponse } from 'node:http';

// How the Increase fake (./fake-increase.ts) answers over HTTP as Increase does: its error
// bodies, and the headers that steer the SDK's retries.

/** An answer: status, body and extra headers. */
export type Answer = [number, unknown, Record<string, string>?];

/** A request header's (first) value. */
export const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
/** Increase's 404. */
export const notFound = (): Answer => [404, { status: 404, type: 'object_not_found_error', title: 'Not found.' }];

/** Writes the answer as JSON. */
export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // A fault asks the SDK to retry at once instead of after its back-off (0.5 s and more).
  const retry = status === 429 || status === 503 ? { 'retry-after-ms': '1' } : {};
  // Increase's answer to a reused key is final: the SDK would otherwise retry a 409.
  const final = status === 409 ? { 'x-should-retry': 'false' } : {};
  res.writeHead(status, { 'content-type': 'application/json', ...retry, ...final, ...headers });
  res.end(JSON.stringify(body));
}
