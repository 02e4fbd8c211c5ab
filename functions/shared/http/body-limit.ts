import { AppError } from '#shared/errors';
import type { HttpEvent, HttpMiddleware } from './types';

/**
 * The largest request body the service reads (docs/api.md#limits): 64 KiB, far above any
 * valid request (a person with every field at its maximum is under 30 KiB, even with every
 * character JSON-escaped) and far below what API Gateway (10 MB) and Lambda (6 MB) let
 * through. Refusing larger bodies before JSON parsing bounds the CPU and memory a caller
 * can make a function spend on one request, and what a test event's free-form `data` can
 * put in the event log.
 */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** The body's size in bytes as the caller sent it: base64 bodies are measured decoded. */
export function requestBodyBytes(event: Pick<HttpEvent, 'body' | 'isBase64Encoded'>): number {
  if (!event.body) return 0;
  return Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

/**
 * 413 `request_too_large` for a body over the limit, on every route and before anything
 * else reads the request (no table access, no token taken, no idempotency record).
 */
export const bodyLimit = (maxBytes = MAX_REQUEST_BODY_BYTES): HttpMiddleware => ({
  before: function refuseLargeBodies({ event }) {
    if (requestBodyBytes(event) > maxBytes) {
      throw new AppError(
        413,
        'request_too_large',
        `the request body is larger than ${maxBytes} bytes (${maxBytes / 1024} KiB)`,
      );
    }
  },
});
