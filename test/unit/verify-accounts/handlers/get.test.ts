import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as get } from '#functions/verify-accounts/handlers/get';
import {
  ACCOUNT_ID,
  accountGets,
  ddb,
  getEvent,
  givenStored,
  storedAccount,
  TABLE,
  useHandlerHarness,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';

useHandlerHarness();

describe('GET /verify/accounts/{id}', () => {
  it.each(['not-a-uuid', '12345', `${ACCOUNT_ID}x`, ACCOUNT_ID.replace(/-/g, '')])(
    'rejects an id that is not a UUID (%s): 400 invalid_id without reading the table',
    async (id) => {
      const res = await invoke(get, getEvent(id));

      expect(res.statusCode).toBe(400);
      expect(res.body.error_code).toBe('invalid_id');
      expect(accountGets()).toHaveLength(0);
    },
  );

  it('answers 404 unknown_id for an id the tenant does not have', async () => {
    const res = await invoke(get, getEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(404);
    expect(res.body.error_code).toBe('unknown_id');
  });

  it('answers 404 unknown_id, never 403, for another tenant’s account', async () => {
    givenStored(storedAccount({ tenant: 'partner-b' }));

    const res = await invoke(get, getEvent(ACCOUNT_ID, { claims: { client_id: 'partner-a' } }));

    expect(res.statusCode).toBe(404);
    expect(res.body.error_code).toBe('unknown_id');
  });

  it('reads the account by the tenant’s key with a consistent read', async () => {
    await invoke(get, getEvent(ACCOUNT_ID));

    expect(accountGets().map((c) => c.args[0].input)).toEqual([
      { TableName: TABLE, Key: { pk: `T#partner-a#VA#${ACCOUNT_ID}`, sk: 'VA' }, ConsistentRead: true },
    ]);
  });

  it('answers 404 when the key holds an item that is not a verify account', async () => {
    ddb.on(GetCommand, { Key: { pk: `T#partner-a#VA#${ACCOUNT_ID}` } }).resolves({
      Item: { pk: `T#partner-a#VA#${ACCOUNT_ID}`, sk: 'VA', entity: 'something_else', id: ACCOUNT_ID },
    });

    const res = await invoke(get, getEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(404);
    expect(res.body.error_code).toBe('unknown_id');
  });

  it('answers 200 { account } with the presented account and nothing of storage', async () => {
    givenStored(
      storedAccount({
        type: 'control_ownership',
        email: 'jane@example.com',
        sender_name: 'Acme Payroll',
        verification_status: 'valid',
        ownership_status: 'full',
        control_status: 'pending',
        debit_status: 'blocked',
        debit_status_reason: 'debit_blocked',
        person: {
          first_name: 'Jane',
          last_name: 'Doe',
          first_name_match: 'match',
          last_name_match: 'match',
          ssn_match: 'match',
        },
        has_ssn: true,
        ownership_secret: 'fake-ciphertext-9',
        statement_code_hash: 'ab'.repeat(32),
        statement_code_sent_at: '2026-01-15T12:00:00.000Z',
        control_attempts: 1,
        version: 4,
        estimated_verification_date: '2026-01-16T00:00:00.000Z',
        updated_at: '2026-01-15T12:00:00.000Z',
      }),
    );

    const res = await invoke(get, getEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({
      account: {
        id: ACCOUNT_ID,
        created_at: '2026-01-15T10:00:00.000Z',
        updated_at: '2026-01-15T12:00:00.000Z',
        type: 'control_ownership',
        account_number: '123456789',
        routing_number: '021000021',
        account_holder_name: 'Jane Doe',
        email: 'jane@example.com',
        sender_name: 'Acme Payroll',
        verification_status: 'valid',
        ownership_status: 'full',
        person: {
          first_name: 'Jane',
          last_name: 'Doe',
          first_name_match: 'match',
          last_name_match: 'match',
          ssn_match: 'match',
        },
        control_status: 'pending',
        debit_status: 'blocked',
        debit_status_reason: 'debit_blocked',
        estimated_verification_date: '2026-01-16T00:00:00.000Z',
      },
    });
  });

  it('never returns storage keys, the ownership ciphertext or the statement code hash', async () => {
    givenStored(storedAccount({ ownership_secret: 'fake-ciphertext-9', statement_code_hash: 'cd'.repeat(32) }));

    const res = await invoke(get, getEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(200);
    for (const hidden of [
      'pk',
      'sk',
      'entity',
      'gsi1pk',
      'gsi1sk',
      'gsi2pk',
      'gsi2sk',
      'ownership_secret',
      'statement_code_hash',
      'tenant',
      'version',
    ]) {
      expect(res.body.account).not.toHaveProperty(hidden);
    }
    expect(res.raw).not.toContain('fake-ciphertext-9');
    expect(res.raw).not.toContain('cd'.repeat(32));
    expect(res.raw).not.toContain('T#partner-a');
  });

  it('omits the fields a stored account does not have rather than sending null', async () => {
    givenStored(storedAccount());

    const res = await invoke(get, getEvent(ACCOUNT_ID));

    expect(res.raw).not.toContain('null');
    expect(res.body.account).not.toHaveProperty('email');
    expect(res.body.account).not.toHaveProperty('control_status');
  });
});
