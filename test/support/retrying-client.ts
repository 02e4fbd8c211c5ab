import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

// A client that retries as docs/api.md#retrying tells partners to: 429, 503 and every other
// 5xx, `409 idempotency_key_in_use` and a request that got no answer are sent again, the
// same request with the same `Idempotency-Key`, after `Retry-After` when the answer has
// one and an exponential backoff otherwise. Every other answer is final. Tests that run
// the service under faults (a killed database, injected throttling) send their requests
// through it, so they see what a partner's code would: each request's final answer, and
// every answer on the way in `answers`.

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: any;
}

interface Options {
  readonly body?: unknown;
  readonly headers?: Record<string, string | undefined>;
  readonly contract?: false;
}

/** What `api(runtime, token)` (test/integration/harness.ts) returns; the one method used. */
interface Client {
  request<B = any>(method: string, path: string, options?: Options): Promise<Answer & { body: B }>;
}

export interface RetryPolicy {
  /** Backoff without `Retry-After`: base × 2^(retry − 1), at most `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A request still not answered for good this long after it was first sent fails the test. */
  readonly giveUpAfterMs: number;
}

export const PARTNER_RETRY_POLICY: RetryPolicy = { baseDelayMs: 250, maxDelayMs: 5_000, giveUpAfterMs: 180_000 };

/** One answer on the way to a final one (a network failure has no status). */
export interface SeenAnswer {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly errorCode?: string;
  readonly retryAfter?: string;
  readonly error?: string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a partner sends the request again on this answer (docs/api.md#retrying). */
export function isRetryable(answer: Pick<Answer, 'status' | 'body'>): boolean {
  if (answer.status === 429 || answer.status >= 500) return true;
  return answer.status === 409 && answer.body?.error_code === 'idempotency_key_in_use';
}

export function retryingClient(client: Client, policy: RetryPolicy = PARTNER_RETRY_POLICY) {
  const answers: SeenAnswer[] = [];
  const request = async <B = any>(method: string, path: string, options: Options = {}) => {
    // A write keeps one key through all its retries: that is what makes a retry safe.
    const given = Object.entries(options.headers ?? {}).find(([name]) => name.toLowerCase() === 'idempotency-key');
    const headers =
      WRITES.has(method) && !given ? { ...options.headers, 'idempotency-key': randomUUID() } : options.headers;
    const started = performance.now();
    for (let retry = 1; ; retry++) {
      let answer: (Answer & { body: B }) | undefined;
      try {
        answer = await client.request<B>(method, path, { ...options, headers });
        answers.push({
          method,
          path,
          status: answer.status,
          errorCode: answer.body?.error_code,
          retryAfter: answer.headers['retry-after'],
        });
        if (!isRetryable(answer)) return answer;
      } catch (error) {
        // No answer at all (connection refused or reset): the request may or may not have run.
        answers.push({ method, path, error: String(error) });
      }
      const retryAfter = Number(answer?.headers['retry-after']);
      const wait = Number.isFinite(retryAfter)
        ? retryAfter * 1000
        : Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
      if (performance.now() - started + wait > policy.giveUpAfterMs) {
        throw new Error(
          `${method} ${path} not answered for good within ${policy.giveUpAfterMs} ms; last: ${JSON.stringify(answers.at(-1))}`,
        );
      }
      await sleep(wait);
    }
  };
  return {
    request,
    /** Every answer seen, retried ones included, in the order they came. */
    answers,
    get: <B = any>(path: string, options?: Options) => request<B>('GET', path, options),
    post: <B = any>(path: string, body?: unknown, options?: Options) => request<B>('POST', path, { ...options, body }),
    put: <B = any>(path: string, body?: unknown, options?: Options) => request<B>('PUT', path, { ...options, body }),
    patch: <B = any>(path: string, body?: unknown, options?: Options) =>
      request<B>('PATCH', path, { ...options, body }),
    delete: <B = any>(path: string, options?: Options) => request<B>('DELETE', path, options),
  };
}
