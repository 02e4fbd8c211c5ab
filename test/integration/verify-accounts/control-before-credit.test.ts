import { describe, expect, it } from 'vitest';
import { accountBody, freshAccountNumber, useVerifyRuntime } from './support';

// No pipeline: the credit carrying the statement code is never sent.
const env = useVerifyRuntime({ consumers: [] });

describe('POST /verify/accounts/{id}/control before the credit is sent', () => {
  it('answers statement_code_not_sent and uses up no attempt', async () => {
    const created = await env.clients.alice.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber(), type: 'control' }),
    );
    const id = created.body.account.id;
    for (let i = 0; i < 4; i++) {
      const early = await env.clients.alice.post(`/verify/accounts/${id}/control`, { statement_code: '0000' });
      expect(early.status).toBe(400);
      expect(early.body.error_code).toBe('statement_code_not_sent');
    }
    expect((await env.clients.alice.get(`/verify/accounts/${id}`)).body.account.control_status).toBe('pending');
  });
});
