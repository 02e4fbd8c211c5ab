import { ConditionalCheckFailedException, ThrottlingException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as control } from '#functions/verify-accounts/handlers/control';
import { handler as create } from '#functions/verify-accounts/handlers/create';
import { handler as get } from '#functions/verify-accounts/handlers/get';
import { ENTITY } from '#shared/db/entities';
import { keys } from '#shared/db/keys';
import {
  ACCOUNT_ID,
  accountWriteFails,
  controlEvent,
  createEvent,
  ddb,
  FRIDAY,
  getEvent,
  givenStored,
  storedControlAccount,
  TENANT,
  TEST_FIELD_CIPHER,
  useHandlerHarness,
  validCreateBody,
  verificationWrites,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';
import { countOf } from '#test/support/metrics';

const harness = useHandlerHarness();

const KEY = 'order-7f3a-create-account';
const CREATE_ROUTE = 'POST /verify/accounts';
const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });
const idemKey = (route: string, key = KEY) => keys.idempotency(TENANT, route, key);

/** The idempotency record the key's first request left, as DynamoDB hands it back on a failed condition. */
function keyHeldBy(record: { status: 'completed' | 'in_progress'; fingerprint: string; response?: string }) {
  const Item: Record<string, { S: string } | { N: string }> = {
    pk: { S: idemKey(CREATE_ROUTE).pk },
    sk: { S: 'IDEM' },
    status: { S: record.status },
    fingerprint: { S: record.fingerprint },
    locked_until_ms: { N: String(FRIDAY.getTime() + 60_000) },
    expires_at_ms: { N: String(FRIDAY.getTime() + 86_400_000) },
  };
  if (record.response) Item.response = { S: record.response };
  ddb.on(PutCommand).rejects(
    new ConditionalCheckFailedException({
      message: 'The conditional request failed',
      $metadata: {},
      Item: Item as never,
    }),
  );
}

/** Makes a first request with the key and returns what the service kept of it. */
async function firstRequest(body: Record<string, unknown>, key = KEY) {
  const res = await invoke(create, createEvent(body, withKey(key)));
  const claim = ddb.commandCalls(PutCommand)[0].args[0].input;
  const [completion] = idemUpdates();
  ddb.resetHistory();
  return {
    res,
    fingerprint: String(claim.Item?.fingerprint),
    response: String(completion.ExpressionAttributeValues?.[':response']),
  };
}

/** The writes of the key's record: an update alone, or one in the transaction of the request's work. */
const idemUpdates = () =>
  [
    ...ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input),
    ...ddb
      .commandCalls(TransactWriteCommand)
      .flatMap((c) => (c.args[0].input.TransactItems ?? []).flatMap((item) => (item.Update ? [item.Update] : []))),
  ].filter((update) => update.Key?.sk === 'IDEM');

describe('Idempotency-Key on POST /verify/accounts', () => {
  it('claims the key for this tenant and route, then keeps the response as completed, its account number sealed to the record', async () => {
    const res = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(res.statusCode).toBe(200);
    const [claim] = ddb.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(claim.Item).toMatchObject({
      ...idemKey(CREATE_ROUTE),
      status: 'in_progress',
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      expires_at_ms: FRIDAY.getTime() + 24 * 60 * 60 * 1000,
    });
    const [completion] = idemUpdates();
    expect(completion.Key).toEqual(idemKey(CREATE_ROUTE));
    expect(completion.ExpressionAttributeValues?.[':completed']).toBe('completed');
    const kept = JSON.parse(String(completion.ExpressionAttributeValues?.[':response']));
    expect(kept.statusCode).toBe(200);
    expect(kept.body).not.toContain('123456789');
    const owner = { tenant: TENANT, record: `${idemKey(CREATE_ROUTE).pk}/${idemKey(CREATE_ROUTE).sk}` };
    expect(TEST_FIELD_CIPHER.openWithin(JSON.parse(kept.body), owner, 'response')).toEqual(res.body);
  });

  it('replays the first response for the same key and body, with idempotent-replayed: true, and creates nothing', async () => {
    const first = await firstRequest(validCreateBody());
    keyHeldBy({ status: 'completed', fingerprint: first.fingerprint, response: first.response });

    const again = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.res.body);
    expect(again.body.account.id).toBe(first.res.body.account.id);
    expect(verificationWrites()).toHaveLength(0);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(idemUpdates()).toHaveLength(0);
  });

  it('counts the replay as one IdempotentReplay, and the first request as none', async () => {
    const first = await firstRequest(validCreateBody());
    expect(countOf(harness.metrics, 'IdempotentReplay')).toBe(0);
    keyHeldBy({ status: 'completed', fingerprint: first.fingerprint, response: first.response });

    await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(countOf(harness.metrics, 'IdempotentReplay')).toBe(1);
    expect(countOf(harness.metrics, 'VerificationCreated')).toBe(1);
  });

  it('counts no IdempotentReplay for a key reused with another body or still in progress', async () => {
    const first = await firstRequest(validCreateBody());
    keyHeldBy({ status: 'completed', fingerprint: first.fingerprint, response: first.response });
    expect(
      (await invoke(create, createEvent(validCreateBody({ account_number: '987654321' }), withKey(KEY)))).statusCode,
    ).toBe(422);
    keyHeldBy({ status: 'in_progress', fingerprint: first.fingerprint });
    expect((await invoke(create, createEvent(validCreateBody(), withKey(KEY)))).statusCode).toBe(409);

    expect(countOf(harness.metrics, 'IdempotentReplay')).toBe(0);
  });

  it('answers a key still in progress 409 idempotency_key_in_use with Retry-After: the seconds until its lock lapses', async () => {
    const first = await firstRequest(validCreateBody());
    keyHeldBy({ status: 'in_progress', fingerprint: first.fingerprint });

    const res = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(res.statusCode).toBe(409);
    expect(res.body.error_code).toBe('idempotency_key_in_use');
    // The first request may still answer, or have died: a client retries after the lock at the latest.
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body.details).toEqual({ retry_after_seconds: 60 });
  });

  it('does not mark a first response as replayed', async () => {
    const res = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('treats a body with the same fields in another order as the same request', async () => {
    const first = await firstRequest({
      account_number: '123456789',
      routing_number: '021000021',
      account_holder_name: 'Jane Doe',
    });
    keyHeldBy({ status: 'completed', fingerprint: first.fingerprint, response: first.response });

    const again = await invoke(
      create,
      createEvent(
        { account_holder_name: 'Jane Doe', routing_number: '021000021', account_number: '123456789' },
        withKey(KEY),
      ),
    );

    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('answers 422 idempotency_key_reused when the key comes back with another body', async () => {
    const first = await firstRequest(validCreateBody());
    keyHeldBy({ status: 'completed', fingerprint: first.fingerprint, response: first.response });

    const res = await invoke(create, createEvent(validCreateBody({ account_number: '987654321' }), withKey(KEY)));

    expect(res.statusCode).toBe(422);
    expect(res.body.error_code).toBe('idempotency_key_reused');
    expect(verificationWrites()).toHaveLength(0);
  });

  it('answers 409 idempotency_key_in_use while the first request is still running', async () => {
    const first = await firstRequest(validCreateBody());
    keyHeldBy({ status: 'in_progress', fingerprint: first.fingerprint });

    const res = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(res.statusCode).toBe(409);
    expect(res.body.error_code).toBe('idempotency_key_in_use');
    expect(verificationWrites()).toHaveLength(0);
  });

  it('answers 422 idempotency_key_reused for another body even while the first request is running', async () => {
    const first = await firstRequest(validCreateBody());
    keyHeldBy({ status: 'in_progress', fingerprint: first.fingerprint });

    const res = await invoke(create, createEvent(validCreateBody({ email: 'jane@example.com' }), withKey(KEY)));

    expect(res.statusCode).toBe(422);
    expect(res.body.error_code).toBe('idempotency_key_reused');
  });

  it('does not release or overwrite the record of a key it did not claim', async () => {
    const first = await firstRequest(validCreateBody());
    keyHeldBy({ status: 'in_progress', fingerprint: first.fingerprint });

    await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
    expect(idemUpdates()).toHaveLength(0);
  });

  it('rejects a key longer than 255 characters: 400 invalid_idempotency_key', async () => {
    const res = await invoke(create, createEvent(validCreateBody(), withKey('k'.repeat(256))));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('invalid_idempotency_key');
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(verificationWrites()).toHaveLength(0);
  });

  it('rejects an empty key: 400 invalid_idempotency_key', async () => {
    const res = await invoke(create, createEvent(validCreateBody(), withKey('')));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('invalid_idempotency_key');
  });

  it('accepts a key of exactly 255 characters', async () => {
    const res = await invoke(create, createEvent(validCreateBody(), withKey('k'.repeat(255))));

    expect(res.statusCode).toBe(200);
    expect(ddb.commandCalls(PutCommand)[0].args[0].input.Item?.pk).toBe(idemKey(CREATE_ROUTE, 'k'.repeat(255)).pk);
  });

  it('keeps keys of different tenants apart', async () => {
    await invoke(create, createEvent(validCreateBody(), { ...withKey(KEY), claims: { client_id: 'partner-b' } }));

    expect(ddb.commandCalls(PutCommand)[0].args[0].input.Item?.pk).toBe(
      keys.idempotency('partner-b', CREATE_ROUTE, KEY).pk,
    );
  });

  it('does not claim the key for a request rejected by validation', async () => {
    const res = await invoke(create, createEvent(validCreateBody({ routing_number: '021000022' }), withKey(KEY)));

    expect(res.statusCode).toBe(400);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('completes the key with a 4xx result, so the same request replays that answer', async () => {
    const live = FRIDAY.getTime() + 60_000;
    ddb.on(QueryCommand).resolves({ Items: [0, 1, 2, 3, 4].map((n) => ({ sk: `SLOT#${n}`, expires_at_ms: live })) });

    const res = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(res.statusCode).toBe(429);
    const [completion] = idemUpdates();
    expect(completion.ExpressionAttributeValues?.[':completed']).toBe('completed');
    const kept = JSON.parse(String(completion.ExpressionAttributeValues?.[':response']));
    expect(kept.statusCode).toBe(429);
    expect(JSON.parse(kept.body).error_code).toBe('too_many_verifications');
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('keeps the first response through a table that throttles for a while: the work is done, so the caller gets its 200', async () => {
    const throttled = new ThrottlingException({ message: 'rate exceeded', $metadata: {} });
    ddb.on(UpdateCommand).rejects(throttled);

    const res = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(res.statusCode).toBe(200);
    // Kept in the transaction that puts the account: no write of the record follows the work.
    const [work] = ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems ?? []);
    expect(work?.map((item) => item.Put?.Item?.entity ?? item.Update?.Key?.sk)).toEqual([ENTITY.verifyAccount, 'IDEM']);
    expect(idemUpdates()).toHaveLength(1);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('keeps a response written after the handler (its work wrote nothing) through a table that throttles for a while', async () => {
    const throttled = new ThrottlingException({ message: 'rate exceeded', $metadata: {} });
    givenStored(storedControlAccount({ control_status: 'valid' }));
    ddb
      .on(UpdateCommand, { Key: idemKey('POST /verify/accounts/{id}/control') })
      .rejectsOnce(throttled)
      .rejectsOnce(throttled)
      .resolves({});

    const res = await invoke(control, controlEvent(ACCOUNT_ID, { statement_code: '0000' }, withKey(KEY)));

    expect(res.statusCode).toBe(200);
    expect(idemUpdates()).toHaveLength(3);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('releases the key after a 5xx so the caller can retry, and keeps no response', async () => {
    ddb.on(QueryCommand).rejects(new Error('throttled'));

    const res = await invoke(create, createEvent(validCreateBody(), withKey(KEY)));

    expect(res.statusCode).toBe(500);
    const deletes = ddb.commandCalls(DeleteCommand).map((c) => c.args[0].input);
    expect(deletes).toHaveLength(1);
    expect(deletes[0].Key).toEqual(idemKey(CREATE_ROUTE));
    // Only this request's claim is freed: one that lapsed and was taken over stays the new holder's.
    const claim = ddb.commandCalls(PutCommand).find((c) => c.args[0].input.Item?.entity === ENTITY.idempotency);
    expect(deletes[0].ExpressionAttributeValues).toEqual({
      ':in_progress': 'in_progress',
      ':claimed': claim?.args[0].input.Item?.locked_until_ms,
    });
    expect(idemUpdates()).toHaveLength(0);
  });

  it('still answers the contract’s 500 body when releasing the key fails too', async () => {
    accountWriteFails(new Error('throttled'));
    ddb.on(DeleteCommand).rejects(new Error('throttled again'));

    const answer = invoke(create, createEvent(validCreateBody(), { ...withKey(KEY), requestId: 'req-release-fails' }));

    // A rejected promise would reach API Gateway as its own bare 500, without the contract's body.
    await expect(answer).resolves.toMatchObject({
      statusCode: 500,
      body: { error_code: 'internal_server_error', request_id: 'req-release-fails' },
    });
  });

  it('ignores Idempotency-Key on GET', async () => {
    await invoke(get, getEvent(ACCOUNT_ID, withKey(KEY)));

    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });
});

describe('Idempotency-Key on POST /verify/accounts/{id}/control', () => {
  const CONTROL_ROUTE = 'POST /verify/accounts/{id}/control';

  it('completes the key with a wrong-code answer (a 4xx is kept, not released)', async () => {
    givenStored(storedControlAccount());

    const res = await invoke(control, controlEvent(ACCOUNT_ID, { statement_code: '9999' }, withKey(KEY)));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('incorrect_statement_code');
    const [completion] = idemUpdates();
    expect(completion.Key).toEqual(idemKey(CONTROL_ROUTE));
    const kept = JSON.parse(String(completion.ExpressionAttributeValues?.[':response']));
    expect(kept.statusCode).toBe(400);
    expect(JSON.parse(kept.body).details).toEqual({ attempts_remaining: 2 });
  });

  it('replays a kept wrong-code answer without touching the account', async () => {
    givenStored(storedControlAccount());
    await invoke(control, controlEvent(ACCOUNT_ID, { statement_code: '9999' }, withKey(KEY)));
    const claim = ddb.commandCalls(PutCommand)[0].args[0].input;
    const [completion] = idemUpdates();
    ddb.resetHistory();
    ddb.on(PutCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        Item: {
          status: { S: 'completed' },
          fingerprint: { S: String(claim.Item?.fingerprint) },
          response: { S: String(completion.ExpressionAttributeValues?.[':response']) },
        },
      }),
    );

    const again = await invoke(control, controlEvent(ACCOUNT_ID, { statement_code: '9999' }, withKey(KEY)));

    expect(again.statusCode).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.details).toEqual({ attempts_remaining: 2 });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('treats the same key on another account as another request: 422 idempotency_key_reused', async () => {
    givenStored(storedControlAccount());
    await invoke(control, controlEvent(ACCOUNT_ID, { statement_code: '0000' }, withKey(KEY)));
    const claim = ddb.commandCalls(PutCommand)[0].args[0].input;
    ddb.on(PutCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        Item: { status: { S: 'in_progress' }, fingerprint: { S: String(claim.Item?.fingerprint) } },
      }),
    );

    const other = await invoke(
      control,
      controlEvent('0b8e1a52-7c4d-4e6f-8a9b-1c2d3e4f5a6b', { statement_code: '0000' }, withKey(KEY)),
    );

    expect(other.statusCode).toBe(422);
    expect(other.body.error_code).toBe('idempotency_key_reused');
  });
});
