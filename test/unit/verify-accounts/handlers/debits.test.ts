import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as debits } from '#functions/verify-accounts/handlers/debits';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import {
  ACCOUNT_ID,
  ddb,
  debitsEvent,
  FRIDAY,
  givenStored,
  storedAccount,
  TENANT,
  useHandlerHarness,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';

useHandlerHarness();

const blocked = (over: Record<string, unknown> = {}) =>
  storedAccount({
    verification_status: 'valid',
    debit_status: 'blocked',
    debit_status_reason: 'debit_blocked',
    version: 2,
    ...over,
  });

const accountKey = accountKeys.account(TENANT, ACCOUNT_ID);
const slotClaims = () =>
  ddb
    .commandCalls(PutCommand)
    .map((c) => c.args[0].input)
    .filter((input) => input.Item?.entity === 'verification_slot');
const accountUpdates = () =>
  ddb
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((input) => input.Key?.pk === accountKey.pk);
/** Every write the re-check made: slot claims and releases, account updates (the middleware's are not counted). */
const writes = () => [...slotClaims(), ...accountUpdates(), ...ddb.commandCalls(DeleteCommand)];

describe('POST /verify/accounts/{id}/debits', () => {
  it('answers the account with debit_status pending and its reason gone: a verification slot claimed, then the versioned update', async () => {
    givenStored(blocked());

    const res = await invoke(debits, debitsEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(200);
    expect(res.body.account).toMatchObject({ id: ACCOUNT_ID, verification_status: 'valid', debit_status: 'pending' });
    expect(res.body.account).not.toHaveProperty('debit_status_reason');
    expect(res.body.account.updated_at).toBe(FRIDAY.toISOString());
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const [slot] = slotClaims();
    expect(slot.Item).toMatchObject({
      pk: accountKeys.slots(TENANT, '021000021', '123456789'),
      account_id: ACCOUNT_ID,
    });
    expect(slot.ConditionExpression).toBe('attribute_not_exists(pk) OR expires_at_ms <= :now');
    const [update] = accountUpdates();
    expect(update).toMatchObject({
      Key: accountKey,
      ConditionExpression: 'version = :v',
      ExpressionAttributeValues: { ':debit_status': 'pending', ':v': 2, ':next': 3 },
    });
    expect(update.UpdateExpression).toContain('REMOVE #debit_status_reason');
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('releases the slot when the account changed meanwhile, reads again, and answers 409 concurrent_update once retries run out', async () => {
    givenStored(blocked());
    ddb
      .on(UpdateCommand, { Key: accountKey })
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

    const res = await invoke(debits, debitsEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(409);
    expect(res.body.error_code).toBe('concurrent_update');
    const claims = slotClaims();
    const releases = ddb.commandCalls(DeleteCommand).map((c) => c.args[0].input);
    expect(claims.length).toBeGreaterThan(0);
    expect(accountUpdates()).toHaveLength(claims.length);
    // Every claim is released again, each on condition that it is still this request's.
    expect(releases).toEqual(
      claims.map((claim) => ({
        TableName: claim.TableName,
        Key: { pk: claim.Item?.pk, sk: claim.Item?.sk },
        ConditionExpression: 'account_id = :account AND expires_at_ms = :expires',
        ExpressionAttributeValues: { ':account': ACCOUNT_ID, ':expires': claim.Item?.expires_at_ms },
      })),
    );
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
    expect(writes()).toHaveLength(0);
  });

  it('answers 429 too_many_verifications when the bank account used its 5 verifications of the last 24 h', async () => {
    givenStored(blocked());
    const taken = [0, 1, 2, 3, 4].map((n) => ({ sk: `SLOT#${n}`, expires_at_ms: FRIDAY.getTime() + 1000 }));
    ddb.on(QueryCommand).resolves({ Items: taken });

    const res = await invoke(debits, debitsEvent(ACCOUNT_ID));

    expect(res.statusCode).toBe(429);
    expect(res.body.error_code).toBe('too_many_verifications');
    expect(writes()).toHaveLength(0);
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
