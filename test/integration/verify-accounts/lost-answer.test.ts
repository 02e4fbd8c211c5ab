import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENTITY } from '#shared/db/entities';
import { losingTheAnswerOf } from '#test/support/lost-answer';
import { stopClock } from '#test/support/stopped-clock';
import { accountBody, freshAccountNumber, useVerifyRuntime } from './support';

/**
 * A create whose write landed but whose answer was lost (the SDK's request timed out after
 * DynamoDB applied it, a connection reset on the way back) answers 5xx. The partner then
 * retries with the same Idempotency-Key, as docs/api.md#idempotency tells it to: the retry
 * must not start a second verification of the same request.
 */
const env = useVerifyRuntime();

const createLosingTheAnswer = (body: Record<string, unknown>, headers: Record<string, string>) =>
  losingTheAnswerOf(ENTITY.verifyAccount, () => env.clients.alice.post('/verify/accounts', body, { headers }));

describe('a create whose answer was lost', () => {
  it('is not made twice by the retry with the same Idempotency-Key', async () => {
    const accountNumber = freshAccountNumber();
    const body = accountBody({ account_number: accountNumber });
    const headers = { 'Idempotency-Key': randomUUID() };
    expect((await createLosingTheAnswer(body, headers)).status).toBeGreaterThanOrEqual(500);

    const retry = await env.clients.alice.post('/verify/accounts', body, { headers });
    expect(retry.status).toBe(200);

    const listed = await env.clients.alice.get(`/verify/accounts?account_number=${accountNumber}`);
    expect(listed.body.accounts.map((account: { id: string }) => account.id)).toEqual([retry.body.account.id]);
  });

  it('is not taken by another request sent with the same key: that answers 422 idempotency_key_reused', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = accountBody({ account_number: freshAccountNumber() });
    expect((await createLosingTheAnswer(body, headers)).status).toBeGreaterThanOrEqual(500);

    const other = await env.clients.alice.post(
      '/verify/accounts',
      { ...body, account_holder_name: 'John Roe' },
      { headers },
    );
    expect(other.status).toBe(422);
    expect(other.body.error_code).toBe('idempotency_key_reused');
  });

  it('is a new request once the key is 24 hours old, as a key then is: it starts a new verification', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = accountBody({ account_number: freshAccountNumber() });
    const clock = stopClock();
    try {
      const first = await env.clients.alice.post('/verify/accounts', body, { headers });
      expect(first.status).toBe(200);
      clock.advance(25 * 60 * 60 * 1000);

      const again = await env.clients.alice.post('/verify/accounts', body, { headers });
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.account.id).not.toBe(first.body.account.id);
    } finally {
      clock.restart();
    }
  });
});
