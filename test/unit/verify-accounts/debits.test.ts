import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { handler as debits } from '../../../functions/verify-accounts/debits';
import {
  ACCOUNT_ID,
  ddb,
  debitsEvent,
  FRIDAY,
  givenStored,
  storedAccount,
  TENANT,
  useHandlerHarness,
} from '../../support/handler-harness';
import { invoke } from '../../support/http-events';

useHandlerHarness();

const blocked = (over: Record<string, unknown> = {}) =>
  storedAccount({
    verification_status: 'valid',
    debit_status: 'blocked',
    debit_status_reason: 'debit_blocked',
    version: 2,
    ...over,
  });

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems ?? []);

describe('POST /verify/accounts/{id}/debits', () => {
  it('answers the account with debit_status pending and its reason gone, in one transaction with a verification slot', async () => {
    givenStored(blocked());

    const res = await invoke(debits, debitsEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(200);
    expect(res.body.account).toMatchObject({ id: ACCOUNT_ID, verification_status: 'valid', debit_status: 'pending' });
    expect(res.body.account).not.toHaveProperty('debit_status_reason');
    expect(res.body.account.updated_at).toBe(FRIDAY.toISOString());
    const [[update, slot]] = transactions();
    expect(update.Update).toMatchObject({
      Key: accountKeys.account(TENANT, ACCOUNT_ID),
      ConditionExpression: 'version = :v',
      ExpressionAttributeValues: { ':debit_status': 'pending', ':v': 2, ':next': 3 },
    });
    expect(update.Update?.UpdateExpression).toContain('REMOVE #debit_status_reason');
    expect(slot.Put?.Item).toMatchObject({
      pk: accountKeys.slots(TENANT, '021000021', '123456789'),
      account_id: ACCOUNT_ID,
    });
  });

  it('accepts an empty body and refuses unknown fields: 400 unknown_field', async () => {
    givenStored(blocked());
    expect((await invoke(debits, debitsEvent(ACCOUNT_ID, {}))).statusCode).toBe(200);
    const res = await invoke(debits, debitsEvent(ACCOUNT_ID, { amount: 1 }));
    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('unknown_field');
  });

  it('answers 200 unchanged and writes nothing while a debit check is pending', async () => {
    givenStored(storedAccount({ verification_status: 'pending', debit_status: 'pending' }));

    const res = await invoke(debits, debitsEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(200);
    expect(res.body.account.debit_status).toBe('pending');
    expect(transactions()).toHaveLength(0);
  });

  it('answers 429 too_many_verifications when the bank account used its 5 verifications of the last 24 h', async () => {
    givenStored(blocked());
    const taken = [0, 1, 2, 3, 4].map((n) => ({ sk: `SLOT#${n}`, expires_at_ms: FRIDAY.getTime() + 1000 }));
    ddb.on(QueryCommand).resolves({ Items: taken });

    const res = await invoke(debits, debitsEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(429);
    expect(res.body.error_code).toBe('too_many_verifications');
    expect(transactions()).toHaveLength(0);
  });

  it('answers 404 unknown_id for an unknown or another tenant’s account, 400 invalid_id for a malformed id', async () => {
    givenStored(blocked({ tenant: 'partner-b' }));
    const unknown = await invoke(debits, debitsEvent(ACCOUNT_ID));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.error_code).toBe('unknown_id');
    const malformed = await invoke(debits, debitsEvent('account-1'));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body.error_code).toBe('invalid_id');
  });
});
