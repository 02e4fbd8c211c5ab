import { AppError, isDependencyUnavailable, ServiceUnavailableError } from '#shared/errors';
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
 * The contract's error body `{ error_code, message, details?, request_id }`. A dependency
 * that is away (isDependencyUnavailable) is `503 service_unavailable` with `Retry-After`;
 * anything else that is not an exposed AppError becomes `internal_server_error` with no
 * internals.
 */
export function errorResult(error: unknown, requestId: string): HttpResult {
  const known =
    error instanceof AppError && error.expose
      ? error
      : isDependencyUnavailable(error)
        ? new ServiceUnavailableError({ cause: error })
        : undefined;
  const body = known
    ? { ...known.fields, error_code: known.code, message: known.message, details: known.details, request_id: requestId }
    : {
        error_code: 'internal_server_error',
        message: 'an internal error occurred; retry later',
        request_id: requestId,
      };
  return jsonResult(known ? known.statusCode : 500, body, requestId, known?.headers);
}
