import { describe, expect, it } from 'vitest';
import { eventId } from '#domain/event-envelope';
import { storedEvents } from '#shared/db/stored-events/index';
import { accountBody, freshAccountNumber, useVerifyRuntime } from './support';

const env = useVerifyRuntime();

/** An account the pipeline has verified; `last4` picks the sandbox outcome. */
async function settledAccount(last4: string, accountNumber = `${freshAccountNumber().slice(0, -4)}${last4}`) {
  const created = await env.clients.alice.post('/verify/accounts', accountBody({ account_number: accountNumber }));
  expect(created.status).toBe(200);
  await env.runtime.settle();
  return (await env.clients.alice.get(`/verify/accounts/${created.body.account.id}`)).body.account;
}

const debits = (id: string, client = () => env.clients.alice) => client().post(`/verify/accounts/${id}/debits`, {});

describe('POST /verify/accounts/{id}/debits', () => {
  it('puts debit_status back to pending at once, and the pipeline settles it again with an event for each change', async () => {
    const account = await settledAccount('4444');
    expect(account).toMatchObject({
      verification_status: 'valid',
      debit_status: 'blocked',
      debit_status_reason: 'debit_blocked',
    });

    const restarted = await debits(account.id);

    expect(restarted.status).toBe(200);
    expect(restarted.body.account).toMatchObject({
      id: account.id,
      verification_status: 'valid',
      debit_status: 'pending',
    });
    expect(restarted.body.account).not.toHaveProperty('debit_status_reason');
    await env.runtime.settle();
    const after = (await env.clients.alice.get(`/verify/accounts/${account.id}`)).body.account;
    expect(after).toMatchObject({ debit_status: 'blocked', debit_status_reason: 'debit_blocked' });
    // versions: 1 created, 2 verified, 3 restarted, 4 settled again
    const pending = await storedEvents().get('tenant-alice', eventId('verify_account_updated', account.id, 3));
    const settled = await storedEvents().get('tenant-alice', eventId('verify_account_updated', account.id, 4));
    expect(pending?.envelope.event_data).toMatchObject({ account: { debit_status: 'pending' } });
    expect(settled?.envelope.event_data).toMatchObject({ account: { debit_status: 'blocked' } });
  });

  it('shares the 5-per-24h limit with creation: 429 too_many_verifications', async () => {
    const number = freshAccountNumber();
    const first = await settledAccount('6789', number);
    for (let i = 0; i < 4; i++) {
      const created = await env.clients.alice.post('/verify/accounts', accountBody({ account_number: number }));
      expect(created.status).toBe(200);
    }
    await env.runtime.settle();

    const sixth = await debits(first.id);

    expect(sixth.status).toBe(429);
    expect(sixth.body.error_code).toBe('too_many_verifications');
    expect((await env.clients.alice.get(`/verify/accounts/${first.id}`)).body.account.debit_status).toBe('valid');
  });

  it('answers 404 unknown_id for another tenant’s account and 403 without the write scope', async () => {
    const account = await settledAccount('6789');
    const other = await debits(account.id, () => env.clients.bob);
    expect(other.status).toBe(404);
    expect(other.body.error_code).toBe('unknown_id');
    expect((await debits(account.id, () => env.clients.readOnly)).status).toBe(403);
  });
});
