import { GATEWAY_ERRORS, type GatewayError } from '#lib/service/gateway-errors';

// Turns what a handler returned into the HTTP response an HTTP API (payload format 2.0)
// would send, and writes API Gateway's own error responses (their table is
// lib/service/gateway-errors.ts): clients see exactly these bytes in AWS; local must not
// differ.

export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer;
}

export function gatewayError(kind: GatewayError, headers: Record<string, string> = {}): HttpResponse {
  const { statusCode, message } = GATEWAY_ERRORS[kind];
  return jsonResponse(statusCode, JSON.stringify({ message }), headers);
}

export class MalformedResultError extends Error {}

/**
 * A result without `statusCode` is taken as the body of a 200 JSON response (a string as
 * is, anything else serialised), as API Gateway infers. A result with `statusCode` must
 * be well-formed: a malformed one (or none at all) is a 500, as in AWS, where it is a
 * handler bug that should be loud. Throws MalformedResultError saying what is wrong.
 */
export function toHttpResponse(result: unknown): HttpResponse {
  if (result === undefined || result === null) throw new MalformedResultError('the handler returned nothing');
  if (typeof result === 'string') return jsonResponse(200, result);
  if (typeof result !== 'object' || Array.isArray(result) || !('statusCode' in result)) {
    return jsonResponse(200, JSON.stringify(result));
  }

  const { statusCode, headers = {}, body, isBase64Encoded = false, cookies = [] } = result as Record<string, unknown>;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    throw new MalformedResultError(`statusCode ${JSON.stringify(statusCode)} is not an HTTP status`);
  }
  if (body !== undefined && typeof body !== 'string') throw new MalformedResultError('body must be a string');
  if (typeof isBase64Encoded !== 'boolean') throw new MalformedResultError('isBase64Encoded must be a boolean');
  if (!Array.isArray(cookies) || cookies.some((cookie) => typeof cookie !== 'string')) {
    throw new MalformedResultError('cookies must be an array of strings');
  }
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new MalformedResultError('headers must be an object');
  }

  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!['string', 'number', 'boolean'].includes(typeof value)) {
      throw new MalformedResultError(`header ${name} must be a string, number or boolean`);
    }
    out[name.toLowerCase()] = String(value);
  }
  if (cookies.length > 0) out['set-cookie'] = cookies as string[];
  return { statusCode, headers: out, body: Buffer.from(body ?? '', isBase64Encoded ? 'base64' : 'utf8') };
}

function jsonResponse(statusCode: number, body: string, headers: Record<string, string> = {}): HttpResponse {
  return { statusCode, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body, 'utf8') };
}
