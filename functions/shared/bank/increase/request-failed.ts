import { APIError } from 'increase';

/** A request to Increase that failed: the operation, the status and Increase's error type, nothing sent or answered. */
export class IncreaseRequestFailed extends Error {
  override readonly name = 'IncreaseRequestFailed';
  constructor(
    operation: string,
    readonly status: number | undefined,
    readonly type: string | undefined,
  ) {
    super(`Increase: ${operation} failed (${status ?? 'no answer'}${type ? ` ${type}` : ''})`);
  }
}

/** The failure of a request, with only what may be told of it. */
export function failure(operation: string, error: unknown): IncreaseRequestFailed {
  if (!(error instanceof APIError)) return new IncreaseRequestFailed(operation, undefined, undefined);
  const type = (error.error as { type?: unknown } | undefined)?.type;
  return new IncreaseRequestFailed(operation, error.status, typeof type === 'string' ? type : undefined);
}
