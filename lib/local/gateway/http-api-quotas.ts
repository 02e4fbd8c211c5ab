import type { IncomingMessage } from 'node:http';

// An HTTP API's quotas that the local gateway holds requests to, as AWS states them; none
// can be raised. Whatever passes here passes in AWS.

/** "Payload size": HTTP APIs refuse a body over 10 MB. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** "Total combined size of request line and header values", an HTTP API quota that cannot be raised. */
export const MAX_HEADER_BYTES = 10_240;
/** "Maximum integration timeout" of an HTTP API; it cannot be raised. */
export const INTEGRATION_TIMEOUT_MS = 30_000;
/**
 * Node's own header limit (16 KiB by default) would cut larger requests off with a bare
 * 431 before the gateway sees them; above the quota, so the gateway answers as AWS does.
 */
export const NODE_MAX_HEADER_SIZE = 64 * 1024;

/**
 * The request line and headers as the quota counts them, in bytes. Header names are
 * counted too (AWS's wording says "values"): a little stricter, so whatever passes here
 * passes in AWS.
 */
export function headerSectionBytes(
  req: Pick<IncomingMessage, 'method' | 'url' | 'httpVersion' | 'rawHeaders'>,
): number {
  let bytes = Buffer.byteLength(`${req.method} ${req.url} HTTP/${req.httpVersion}`);
  for (const part of req.rawHeaders) bytes += Buffer.byteLength(part);
  return bytes;
}

/** Resolves undefined when the body is over the limit (and drains the rest unread). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? undefined : Buffer.concat(chunks);
}
