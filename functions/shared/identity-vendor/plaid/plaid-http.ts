import { setTimeout as sleep } from 'node:timers/promises';
import type { PlaidError } from 'plaid';

// Plaid's HTTP API as the adapter calls it (./plaid-vendor.ts): a POST of JSON with the
// client id and secret in Plaid's headers, on native fetch. Not the `plaid` SDK's client:
// it bundles every Plaid product's generated calls and axios, 770 KB minified, to make
// three calls whose shapes its types give here (docs/decisions.md#plaid-identity-verification-for-service-kyc-issue-45).

/** Plaid's base URL of each environment. */
export const PLAID_BASE_URLS = { sandbox: 'https://sandbox.plaid.com', production: 'https://production.plaid.com' };
/** The API version this adapter is written for (the SDK's own). */
export const PLAID_VERSION = '2020-09-14';

export interface PlaidHttpOptions {
  readonly baseURL: string;
  readonly clientId: string;
  readonly secret: string;
  /** Retries of a request that timed out, failed to connect, or was answered 408, 429 or 5xx. @default 2 */
  readonly maxRetries?: number;
  /** The first retry's wait, doubled at each retry. @default 250 */
  readonly retryDelayMs?: number;
  /** How long one request may take. @default 5000 */
  readonly timeoutMs?: number;
}

/** A request to Plaid that failed: the operation, the status and Plaid's error type and code, nothing sent or answered. */
export class PlaidRequestFailed extends Error {
  override readonly name = 'PlaidRequestFailed';
  constructor(
    operation: string,
    readonly status: number | undefined,
    readonly errorType?: string,
    readonly errorCode?: string,
  ) {
    super(`Plaid: ${operation} failed (${status ?? 'no answer'}${errorCode ? ` ${errorType}/${errorCode}` : ''})`);
  }
}

const retryable = (status: number): boolean => status === 408 || status === 429 || status >= 500;

export class PlaidHttp {
  private readonly options: Omit<PlaidHttpOptions, 'secret'>;
  // A private field: the secret is never serialised with the client (a log line, an error).
  readonly #secret: string;

  constructor({ secret, ...options }: PlaidHttpOptions) {
    this.options = options;
    this.#secret = secret;
  }

  /**
   * POSTs `body` to `path`; a timeout, a lost connection, a 408, 429 or 5xx is retried with
   * the same body after a doubling wait, so a create retried carries the same
   * `client_user_id` and Plaid answers the check it made, never a second one.
   */
  async post<T>(operation: string, path: string, body: object): Promise<T> {
    const { maxRetries = 2, retryDelayMs = 250 } = this.options;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        response = await this.send(path, body);
      } catch {
        if (last) throw new PlaidRequestFailed(operation, undefined);
        await sleep(retryDelayMs * 2 ** attempt);
        continue;
      }
      if (response.ok) return (await response.json()) as T;
      const error = (await response.json().catch(() => ({}))) as Partial<PlaidError>;
      if (last || !retryable(response.status)) {
        throw new PlaidRequestFailed(operation, response.status, error.error_type, error.error_code);
      }
      await sleep(retryDelayMs * 2 ** attempt);
    }
  }

  private send(path: string, body: object): Promise<Response> {
    const { baseURL, clientId, timeoutMs = 5000 } = this.options;
    return fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'PLAID-CLIENT-ID': clientId,
        'PLAID-SECRET': this.#secret,
        'Plaid-Version': PLAID_VERSION,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }
}
