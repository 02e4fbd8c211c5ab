import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hashStatementCode } from '#domain/statement-code';
import { handler as control } from '#functions/verify-accounts/handlers/control';
import { digestOf } from '#shared/digest/index';
import {
  ACCOUNT_ID,
  controlEvent,
  ddb,
  FRIDAY,
  givenStored,
  storedAccount,
  storedControlAccount,
  TENANT,
  useHandlerHarness,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';

const harness = useHandlerHarness();

const submit = (code: unknown, id = ACCOUNT_ID) =>
  invoke(control, controlEvent(id, code === undefined ? {} : { statement_code: code }));

const updates = () => ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);

describe('POST /verify/accounts/{id}/control: input', () => {
  it.each([
    ['3 characters', 'abc'],
    ['5 characters', 'abcde'],
    ['symbols', '12#4'],
    ['a space', '12 4'],
    ['non-ASCII letters', 'ÄÖÜß'],
    ['a number', 1234],
    ['an empty string', ''],
  ])('rejects a statement code of %s: 400 invalid_statement_code', async (_what, code) => {
    givenStored(storedControlAccount());

    const res = await submit(code);

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('invalid_statement_code');
    expect(updates()).toHaveLength(0);
  });

  it('requires a statement code: 400 missing_statement_code', async () => {
    const res = await submit(undefined);

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('missing_statement_code');
  });

  it('rejects fields other than statement_code: 400 unknown_field', async () => {
    const res = await invoke(control, controlEvent(ACCOUNT_ID, { statement_code: '0000', attempt: 1 }));

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('unknown_field');
  });

  it('rejects an id that is not a UUID: 400 invalid_id', async () => {
    const res = await submit('0000', 'account-1');

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('invalid_id');
  });

  it('answers 404 unknown_id for an account the tenant does not have', async () => {
    const res = await submit('0000');

    expect(res.statusCode).toBe(404);
    expect(res.body.error_code).toBe('unknown_id');
  });

  it('answers 404 unknown_id for another tenant’s account', async () => {
    givenStored(storedControlAccount({ tenant: 'partner-b' }));

    const res = await submit('0000');

    expect(res.statusCode).toBe(404);
    expect(res.body.error_code).toBe('unknown_id');
  });
});

describe('POST /verify/accounts/{id}/control: when control cannot be submitted', () => {
  it.each(['status', 'status_ownership'])('answers 400 control_not_requested for type %s', async (type) => {
    givenStored(storedAccount({ type }));

    const res = await submit('0000');

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('control_not_requested');
    expect(updates()).toHaveLength(0);
  });

  it('answers 400 statement_code_not_sent before the credit carrying the code was sent, using up no attempt', async () => {
    givenStored(storedControlAccount({ verification_status: 'pending', statement_code_sent_at: undefined }));

    const res = await submit('0000');

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('statement_code_not_sent');
    expect(updates()).toHaveLength(0);
  });

  it('refuses a statement code submitted more than 5 days after it was sent (codes expire)', async () => {
    const sixDaysBefore = new Date(FRIDAY.getTime() - 6 * 24 * 60 * 60 * 1000).toISOString();
    givenStored(storedControlAccount({ statement_code_sent_at: sixDaysBefore }));

    const res = await submit('0000');

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('control_canceled');
    expect(updates().some((u) => u.ExpressionAttributeValues?.[':control_status'] === 'valid')).toBe(false);
  });

  it('accepts the right code just under 5 days after it was sent', async () => {
    const almostFiveDays = new Date(FRIDAY.getTime() - 5 * 24 * 60 * 60 * 1000 + 60_000).toISOString();
    givenStored(storedControlAccount({ statement_code_sent_at: almostFiveDays }), { control_status: 'valid' });

    const res = await submit('0000');

    expect(res.statusCode).toBe(200);
    expect(res.body.account.control_status).toBe('valid');
  });
});

describe('POST /verify/accounts/{id}/control: the right code', () => {
  it('sets control_status valid for the sandbox code 0000 and answers the updated account', async () => {
    givenStored(storedControlAccount({ version: 3 }), {
      control_status: 'valid',
      version: 4,
      updated_at: FRIDAY.toISOString(),
    });

    const res = await submit('0000');

    expect(res.statusCode).toBe(200);
    expect(res.body.account).toMatchObject({ id: ACCOUNT_ID, type: 'control', control_status: 'valid' });
    expect(res.body.account.updated_at).toBe(FRIDAY.toISOString());
    const [update] = updates();
    expect(update.Key).toEqual({ pk: `T#${TENANT}#VA#${ACCOUNT_ID}`, sk: 'VA' });
    expect(update.ConditionExpression).toBe('version = :v');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':control_status': 'valid', ':next': 4, ':v': 3 });
  });

  it('works for control_ownership accounts too', async () => {
    givenStored(storedControlAccount({ type: 'control_ownership', ownership_status: 'full' }), {
      control_status: 'valid',
    });

    const res = await submit('0000');

    expect(res.statusCode).toBe(200);
    expect(res.body.account.control_status).toBe('valid');
  });

  it('compares the code case-insensitively (stored AB12, submitted ab12)', async () => {
    givenStored(storedControlAccount({ statement_code_hash: hashStatementCode('AB12', digestOf('statement-code')) }), {
      control_status: 'valid',
    });

    const res = await submit('ab12');

    expect(res.statusCode).toBe(200);
    expect(updates()[0].ExpressionAttributeValues).toMatchObject({ ':control_status': 'valid' });
  });

  it('accepts the right code on the last remaining attempt', async () => {
    givenStored(storedControlAccount({ control_attempts: 2 }), { control_status: 'valid' });

    const res = await submit('0000');

    expect(res.statusCode).toBe(200);
    expect(updates()[0].ExpressionAttributeValues).toMatchObject({ ':control_status': 'valid' });
  });

  it('answers 200 unchanged and writes nothing when control is already valid', async () => {
    givenStored(storedControlAccount({ control_status: 'valid', version: 5 }));

    const res = await submit('0000');

    expect(res.statusCode).toBe(200);
    expect(res.body.account.control_status).toBe('valid');
    expect(res.body.account.updated_at).toBe('2026-01-15T10:00:00.000Z');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('answers 200 unchanged even to a wrong code once control is valid', async () => {
    givenStored(storedControlAccount({ control_status: 'valid' }));

    const res = await submit('9999');

    expect(res.statusCode).toBe(200);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('never returns the statement code hash', async () => {
    givenStored(storedControlAccount());

    const res = await submit('0000');

    expect(res.raw).not.toContain(hashStatementCode('0000', digestOf('statement-code')));
    expect(res.body.account).not.toHaveProperty('statement_code_hash');
    expect(res.body.account).not.toHaveProperty('control_attempts');
  });
});

describe('POST /verify/accounts/{id}/control: wrong codes (3 attempts in all)', () => {
  it.each([
    [0, 2],
    [1, 1],
  ])(
    'after %i earlier wrong codes, a wrong code answers 400 incorrect_statement_code with attempts_remaining %i (top level, as Orum’s ControlErrorResponse, and in details)',
    async (before, remaining) => {
      givenStored(storedControlAccount({ control_attempts: before, version: 7 }));

      const res = await submit('9999');

      expect(res.statusCode).toBe(400);
      expect(res.body.error_code).toBe('incorrect_statement_code');
      expect(res.body.details).toEqual({ attempts_remaining: remaining });
      expect(res.body.attempts_remaining).toBe(remaining);
      const [update] = updates();
      expect(update.ExpressionAttributeValues).toMatchObject({ ':control_attempts': before + 1, ':next': 8, ':v': 7 });
      expect(update.UpdateExpression).not.toContain('#control_status =');
    },
  );

  it('the third wrong code answers attempts_remaining 0 and cancels control', async () => {
    givenStored(storedControlAccount({ control_attempts: 2 }));

    const res = await submit('9999');

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('incorrect_statement_code');
    expect(res.body.details).toEqual({ attempts_remaining: 0 });
    expect(res.body.attempts_remaining).toBe(0);
    const [update] = updates();
    expect(update.ExpressionAttributeValues).toMatchObject({ ':control_attempts': 3, ':control_status': 'canceled' });
  });

  it('a fourth submission answers 429 too_many_attempts, even with the right code, and writes nothing', async () => {
    givenStored(storedControlAccount({ control_attempts: 3, control_status: 'canceled' }));

    const wrong = await submit('9999');
    const right = await submit('0000');

    expect(wrong.statusCode).toBe(429);
    expect(wrong.body.error_code).toBe('too_many_attempts');
    expect(right.statusCode).toBe(429);
    expect(right.body.error_code).toBe('too_many_attempts');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('answers 400 control_canceled when control was canceled without wrong codes (verification did not end valid)', async () => {
    givenStored(
      storedControlAccount({
        verification_status: 'closed',
        control_status: 'canceled',
        statement_code_sent_at: undefined,
      }),
    );

    const res = await submit('0000');

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe('control_canceled');
  });

  it('does not log the submitted statement code', async () => {
    givenStored(storedControlAccount());

    await submit('Q7Z9');

    expect(harness.logs.join('\n')).not.toMatch(/q7z9/i);
  });
});

describe('POST /verify/accounts/{id}/control: concurrent submissions', () => {
  const conflict = () =>
    new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

  it('re-reads the account and decides again when it changed meanwhile', async () => {
    const stale = storedControlAccount({ version: 1 });
    const fresh = storedControlAccount({ version: 2, control_attempts: 1 });
    ddb
      .on(GetCommand, { Key: { pk: stale.pk, sk: 'VA' } })
      .resolvesOnce({ Item: stale })
      .resolves({ Item: fresh });
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conflict())
      .callsFake(() => ({ Attributes: { ...fresh, control_attempts: 2, version: 3 } }));

    const res = await submit('9999');

    expect(res.statusCode).toBe(400);
    expect(res.body.details).toEqual({ attempts_remaining: 1 });
    expect(updates().map((u) => u.ExpressionAttributeValues?.[':v'])).toEqual([1, 2]);
  });

  it('answers 409 concurrent_update only when the account keeps changing through all five tries', async () => {
    const item = storedControlAccount();
    ddb.on(GetCommand, { Key: { pk: item.pk, sk: 'VA' } }).resolves({ Item: item });
    ddb.on(UpdateCommand).rejects(conflict());

    const res = await submit('0000');

    expect(res.statusCode).toBe(409);
    expect(res.body.error_code).toBe('concurrent_update');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(5);
  });
});
