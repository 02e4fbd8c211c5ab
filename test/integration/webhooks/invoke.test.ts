import { beforeAll, describe, expect, it } from 'vitest';
import { accountBody, freshAccountNumber, useVerifyRuntime } from '../verify-accounts/support';
import { type RecordedWebhook, recordWebhooks } from './support';

/**
 * POST /webhooks/invoke end to end: the test event is stored, fanned out to the tenant's
 * `subscribe_all` configuration and delivered, as Orum's trigger schema describes it.
 */
const env = useVerifyRuntime();
let received: RecordedWebhook[];
beforeAll(async () => {
  received = await recordWebhooks(env.clients.alice);
});

const invoke = (body: Record<string, unknown>) => env.clients.alice.post('/webhooks/invoke', body);

/** An ownership account once verified, exactly as `GET /verify/accounts/{id}` answers it. */
async function verifiedOwnershipAccount(owner: Record<string, unknown>): Promise<Record<string, unknown>> {
  const created = await env.clients.alice.post(
    '/verify/accounts',
    accountBody({ account_number: freshAccountNumber(), type: 'status_ownership', ...owner }),
  );
  expect(created.status).toBe(200);
  await env.runtime.settle();
  return (await env.clients.alice.get(`/verify/accounts/${created.body.account.id}`)).body.account;
}

describe('POST /webhooks/invoke: sensitive keys', () => {
  it('accepts an ownership account exactly as GET answers it (ssn_match, tax_id_match): 201, delivered as sent', async () => {
    const withPerson = await verifiedOwnershipAccount({
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' },
    });
    const withBusiness = await verifiedOwnershipAccount({
      business: { business_name: 'Jane Doe', tax_id: '123456780' },
    });
    expect(withPerson.person).toHaveProperty('ssn_match');
    expect(withBusiness.business).toHaveProperty('tax_id_match');

    for (const account of [withPerson, withBusiness]) {
      const response = await invoke({ event_type: 'verify_account_updated', data: account });
      expect(response.status).toBe(201);
    }
    await env.runtime.settle();
    const sent = received.map((webhook) => JSON.parse(webhook.body));
    for (const account of [withPerson, withBusiness]) {
      expect(sent).toContainEqual(expect.objectContaining({ event_data: { account } }));
    }
  });

  it.each([
    ['ssn', { person: { ssn: '078051120' } }],
    ['social_security_number', { social_security_number: '078-05-1120' }],
    ['tax_id', { business: { tax_id: '123456780' } }],
    ['statement_code', { statement_code: 'AB12' }],
    ['SSN (any case)', { person: { SSN: '078051120' } }],
    ['Tax-Id (any separator)', { business: { 'Tax-Id': '123456780' } }],
  ])('refuses a key named %s at any depth: 400 invalid_data', async (_name, data) => {
    const response = await invoke({ event_type: 'verify_account_updated', data: { id: 'x', ...data } });
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_data');
  });
});
