/**
 * One error hierarchy for the whole service. `code` is the contract's `error_code`;
 * `expose` says whether `message` and `details` may reach the caller (never above 499).
 * Messages must never carry SSNs, tax ids, account numbers or secrets.
 */
export class AppError extends Error {
  readonly expose: boolean;

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: {
      cause?: unknown;
      fields?: Record<string, unknown>;
      headers?: Record<string, string>;
      /** Say a 5xx's code and message to the caller too (503 `service_unavailable`). */
      expose?: boolean;
    },
  ) {
    super(message, options);
    this.name = new.target.name;
    this.expose = options?.expose ?? statusCode < 500;
    this.fields = options?.fields;
    this.headers = options?.headers;
  }

  /** Response headers the error answers with (e.g. `Retry-After` on a 429). */
  readonly headers?: Record<string, string>;

  /** Extra top-level fields of the error body, where the contract has some (e.g. `attempts_remaining`). */
  readonly fields?: Record<string, unknown>;
}

/** 400: the request is malformed or breaks a rule of the contract. */
export class ValidationError extends AppError {
  constructor(code: string, message: string, details?: Record<string, unknown>, fields?: Record<string, unknown>) {
    super(400, code, message, details, { fields });
  }
}

/** 403: the token may call the route but not read this (the event log: an area its scopes do not read). */
export class ForbiddenError extends AppError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(403, code, message, details);
  }
}

/** 404: no such record for this tenant (another tenant's records answer this too). */
export class NotFoundError extends AppError {
  constructor(code: string, message: string) {
    super(404, code, message);
  }
}

/** 409: the request conflicts with the current state of a record. */
export class ConflictError extends AppError {
  constructor(code: string, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(409, code, message, details, { headers });
  }
}

/** 422: well-formed but unprocessable (e.g. an idempotency key reused with another body). */
export class UnprocessableError extends AppError {
  constructor(code: string, message: string) {
    super(422, code, message);
  }
}

/** 429: a limit of the contract was reached. */
export class RateLimitError extends AppError {
  constructor(code: string, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(429, code, message, details, { headers });
  }
}

/**
 * The details and headers of a 429 that says when to come back, as every paced limit
 * answers (docs/api.md#rate-limits): `new RateLimitError(code, message, ...retryAfter(s))`.
 */
export const retryAfter = (seconds: number): [Record<string, unknown>, Record<string, string>] => [
  { retry_after_seconds: seconds },
  { 'retry-after': String(seconds) },
];

/** Seconds a 503 `service_unavailable` asks the caller to wait: the SDK's own retries already waited. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * 503: a dependency (the table, a queue, KMS, a provider) was throttling, failing or out of
 * reach through all of the SDK's own retries. Nothing the caller sent caused it, and the
 * same request (same `Idempotency-Key`) may be sent again after `Retry-After`
 * (docs/api.md#retrying). Nothing of the cause reaches the caller.
 */
export class ServiceUnavailableError extends AppError {
  constructor(options?: { cause?: unknown }) {
    const [details, headers] = retryAfter(UNAVAILABLE_RETRY_AFTER_SECONDS);
    super(
      503,
      'service_unavailable',
      `the service could not reach a dependency; retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} s with the same Idempotency-Key`,
      details,
      { cause: options?.cause, headers, expose: true },
    );
  }
}

/** Errors AWS services answer when they throttle a caller (the SDK retries them before giving up). */
const THROTTLING_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ThrottledException',
  'SlowDown',
]);
/** A connection that could not be made or was cut: the dependency is out of reach for now. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Whether `error` says a dependency is away for now rather than that the request or the
 * code is wrong: throttling, a 5xx of the service, a refused, reset or timed-out
 * connection, as the SDK leaves them once its retries are spent (it retries the same
 * classes). Read from the error's name, code and metadata, never from its message.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 3; cause = cause.cause, depth++) {
    const shaped = cause as Error & { code?: unknown; $fault?: unknown; $metadata?: { httpStatusCode?: number } };
    if (THROTTLING_ERRORS.has(shaped.name) || shaped.name === 'TimeoutError') return true;
    if (typeof shaped.code === 'string' && NETWORK_ERROR_CODES.has(shaped.code)) return true;
    const status = shaped.$metadata?.httpStatusCode;
    if (shaped.$fault === 'server' || (status !== undefined && status >= 500)) return true;
  }
  return false;
}

/** 500: never caused by the caller; the body says only `internal_server_error`. */
export class InternalError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(500, 'internal_server_error', message, undefined, options);
  }
}
