import { describe, expect, it } from 'vitest';
import { isRetryable, retryingClient } from '#test/support/retrying-client';

/** A client that answers from a script and records what it was sent. */
function scripted(...script: ({ status: number; headers?: Record<string, string>; body?: unknown } | Error)[]) {
  const sent: { method: string; path: string; headers?: Record<string, string | undefined> }[] = [];
  return {
    sent,
    async request(method: string, path: string, options: { headers?: Record<string, string | undefined> } = {}) {
      sent.push({ method, path, headers: options.headers });
      const next = script.shift();
      if (!next) throw new Error('the script ran out');
      if (next instanceof Error) throw next;
      return { status: next.status, headers: next.headers ?? {}, body: next.body as any };
    },
  };
}

const FAST = { baseDelayMs: 1, maxDelayMs: 2, giveUpAfterMs: 5_000 };

describe('the partner retry policy (docs/api.md#retrying)', () => {
  it.each([
    [429, undefined, true],
    [503, 'service_unavailable', true],
    [500, 'internal_server_error', true],
    [504, undefined, true],
    [409, 'idempotency_key_in_use', true],
    [409, 'account_already_verified', false],
    [400, 'invalid_json', false],
    [422, 'idempotency_key_reused', false],
    [200, undefined, false],
  ])('%i %s: retried %s', (status, code, retried) => {
    expect(isRetryable({ status, body: code && { error_code: code } })).toBe(retried);
  });

  it('sends a write again with the same Idempotency-Key until an answer is final, after Retry-After', async () => {
    const server = scripted(
      { status: 503, headers: { 'retry-after': '0' }, body: { error_code: 'service_unavailable' } },
      new TypeError('fetch failed'),
      { status: 409, headers: { 'retry-after': '0' }, body: { error_code: 'idempotency_key_in_use' } },
      { status: 200, body: { ok: true } },
    );
    const client = retryingClient(server, FAST);

    const answer = await client.post('/persons', { a: 1 });

    expect(answer.status).toBe(200);
    const keys = server.sent.map((s) => s.headers?.['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.answers.map((a) => a.status ?? 'none')).toEqual([503, 'none', 409, 200]);
  });

  it('keeps a key the caller gave, and gives a read none', async () => {
    const server = scripted({ status: 200 }, { status: 200 });
    const client = retryingClient(server, FAST);

    await client.post('/persons', {}, { headers: { 'Idempotency-Key': 'mine' } });
    await client.get('/persons');

    expect(server.sent[0]?.headers).toEqual({ 'Idempotency-Key': 'mine' });
    expect(server.sent[1]?.headers).toBeUndefined();
  });

  it('returns a final 4xx at once and gives up past its bound', async () => {
    const client = retryingClient(scripted({ status: 400, body: { error_code: 'invalid_json' } }), FAST);
    expect((await client.post('/x', {})).status).toBe(400);

    const never = retryingClient(scripted(...Array.from({ length: 100 }, () => ({ status: 500 }))), {
      ...FAST,
      giveUpAfterMs: 20,
    });
    await expect(never.get('/x')).rejects.toThrow(/not answered for good/);
  });
});
