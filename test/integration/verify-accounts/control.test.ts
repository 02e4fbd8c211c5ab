import { describe, expect, it } from 'vitest';
import { accountBody, freshAccountNumber, useVerifyRuntime } from './support';

const env = useVerifyRuntime();

/** A control account once the pipeline has verified it and sent the credit with the sandbox code. */
async function controlAccount(type = 'control'): Promise<string> {
  const ownership = type === 'control_ownership' ? { business: { business_name: 'Acme Inc' } } : {};
  const response = await env.clients.alice.post(
    '/verify/accounts',
    accountBody({ account_number: freshAccountNumber(), type, ...ownership }),
  );
  expect(response.status).toBe(200);
  await env.runtime.settle();
  return response.body.account.id;
}

const submit = (id: string, statement_code: unknown, client = () => env.clients.alice) =>
  client().post(`/verify/accounts/${id}/control`, { statement_code });

describe('POST /verify/accounts/{id}/control', () => {
  it('makes control valid with the sandbox code 0000, and stays valid on a later submission', async () => {
    const id = await controlAccount('control_ownership');
    const right = await submit(id, '0000');
    expect(right.status).toBe(200);
    expect(right.body.account).toMatchObject({ id, control_status: 'valid' });
    const again = await submit(id, 'ZZZZ');
    expect(again.status).toBe(200);
    expect(again.body.account.control_status).toBe('valid');
    expect(again.body.account.updated_at).toBe(right.body.account.updated_at);
  });

  it('counts wrong codes down, cancels control at the third and answers 429 after', async () => {
    const id = await controlAccount();
    for (const remaining of [2, 1, 0]) {
      const wrong = await submit(id, 'AB12');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        error_code: 'incorrect_statement_code',
        attempts_remaining: remaining,
        details: { attempts_remaining: remaining },
      });
    }
    const fetched = await env.clients.alice.get(`/verify/accounts/${id}`);
    expect(fetched.body.account.control_status).toBe('canceled');
    const fourth = await submit(id, '0000');
    expect(fourth.status).toBe(429);
    expect(fourth.body.error_code).toBe('too_many_attempts');
  });

  it('keeps control pending after the first and the second wrong code: GET shows it and ?control_status=pending lists it', async () => {
    const id = await controlAccount();
    for (const remaining of [2, 1]) {
      expect((await submit(id, 'AB12')).body.details.attempts_remaining).toBe(remaining);
      const fetched = await env.clients.alice.get(`/verify/accounts/${id}`);
      expect(fetched.body.account).toMatchObject({ id, control_status: 'pending' });
      const listed = await env.clients.alice.get(`/verify/accounts?id=${id}&control_status=pending`);
      expect(listed.body.accounts.map((account: { id: string }) => account.id)).toEqual([id]);
    }
    expect((await submit(id, '0000')).body.account.control_status).toBe('valid');
  });

  it('loses no attempt when wrong codes arrive at the same time', async () => {
    const id = await controlAccount();
    const results = await Promise.all([submit(id, 'AB12'), submit(id, 'CD34'), submit(id, 'EF56')]);
    const remaining = results.map((r) => r.body.details?.attempts_remaining).sort();
    expect(remaining).toEqual([0, 1, 2]);
    expect((await submit(id, '0000')).status).toBe(429);
  });

  it('replays a wrong-code answer for the same Idempotency-Key without using another attempt', async () => {
    const id = await controlAccount();
    const headers = { 'idempotency-key': `control-${id}` };
    const first = await env.clients.alice.post(
      `/verify/accounts/${id}/control`,
      { statement_code: 'AB12' },
      { headers },
    );
    const replay = await env.clients.alice.post(
      `/verify/accounts/${id}/control`,
      { statement_code: 'AB12' },
      { headers },
    );
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const next = await submit(id, 'CD34');
    expect(next.body.details.attempts_remaining).toBe(1);
  });

  it('answers control_not_requested for a type without control', async () => {
    const created = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber() }),
    );
    const response = await submit(created.body.account.id, '0000');
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('control_not_requested');
  });

  it('validates the code and the id, and hides other tenants’ accounts', async () => {
    const id = await controlAccount();
    for (const [code, error] of [
      ['00', 'invalid_statement_code'],
      ['0000!', 'invalid_statement_code'],
      [undefined, 'missing_statement_code'],
    ] as const) {
      const response = await submit(id, code);
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe(error);
    }
    const foreign = await submit(id, '0000', () => env.clients.bob);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe('unknown_id');
    expect((await submit('not-a-uuid', '0000')).body.error_code).toBe('invalid_id');
  });
});
