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
    options?: { cause?: unknown; fields?: Record<string, unknown>; headers?: Record<string, string> },
  ) {
    super(message, options);
    this.name = new.target.name;
    this.expose = statusCode < 500;
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
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(409, code, message, details);
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

/** 500: never caused by the caller; the body says only `internal_server_error`. */
export class InternalError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(500, 'internal_server_error', message, undefined, options);
  }
}
