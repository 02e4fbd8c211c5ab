import { AppError } from '#shared/errors';
import type { HttpResult } from './types';

export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

export function jsonResult(
  statusCode: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): HttpResult {
  // An empty answer (204) has no content to type.
  return {
    statusCode,
    headers: { ...(body === undefined ? {} : JSON_HEADERS), 'x-request-id': requestId, ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/**
 * The contract's error body `{ error_code, message, details?, request_id }`. Anything
 * that is not an exposed AppError becomes `internal_server_error` with no internals.
 */
export function errorResult(error: unknown, requestId: string): HttpResult {
  const known = error instanceof AppError && error.expose;
  const body = known
    ? { ...error.fields, error_code: error.code, message: error.message, details: error.details, request_id: requestId }
    : {
        error_code: 'internal_server_error',
        message: 'an internal error occurred; retry later',
        request_id: requestId,
      };
  return jsonResult(known ? error.statusCode : 500, body, requestId, known ? error.headers : undefined);
}
