import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as control } from '#functions/verify-accounts/handlers/control';
import { documentClient } from '#shared/db/document-client';
import { noticeHandler } from '#shared/http/notice-handler';
import { actingFor } from '#shared/tenant-scope';
import { ANSWER_MARGIN_MS } from '#shared/time-budget';
import {
  ACCOUNT_ID,
  controlEvent,
  ddb,
  givenStored,
  storedAccount,
  storedControlAccount,
  TABLE,
  TENANT,
  useHandlerHarness,
} from '#test/support/handler-harness';
import { httpEvent, invoke, lambdaContext } from '#test/support/http-events';

useHandlerHarness();

/**
 * A request the function answered 503 because its time ran out (middy's early timeout, the
 * answer margin before Lambda's: the requests here have 200 ms for their work) frees its
 * Idempotency-Key, so the partner's retry does the work. The handler's promise is not
 * stopped by the answer: in Lambda it runs on when the sandbox thaws for the next request,
 * locally at once. It must start no table call after the answer, or the work is done twice
 * (a busy machine's run of the 20 concurrent PATCHes stored 24 versions for 17 accepted
 * writes).
 */
describe('work a request abandoned when its time ran out', () => {
  it('sends no table call once the 503 is answered', async () => {
    givenStored(storedControlAccount());
    let releaseRead = () => {};
    const readHeld = new Promise<void>((resolve) => {
      releaseRead = resolve;
    });
    const item = storedControlAccount();
    ddb.on(GetCommand, { Key: { pk: item.pk, sk: item.sk } }).callsFake(async () => {
      await readHeld;
      return { Item: item };
    });

    const answer = await invoke(
      control,
      controlEvent(ACCOUNT_ID, { statement_code: '0000' }, { headers: { 'Idempotency-Key': 'k-abandoned' } }),
      lambdaContext({ remainingMs: ANSWER_MARGIN_MS + 200 }),
    );
    expect(answer.statusCode).toBe(503);
    const callsAtAnswer = ddb.calls().length;

    // The read the handler was waiting for comes back after the answer: what it would do next is not done.
    releaseRead();
    await sleep(100);
    expect(ddb.commandCalls(UpdateCommand).filter((call) => call.args[0].input.Key?.pk === item.pk)).toEqual([]);
    expect(ddb.commandCalls(PutCommand).filter((call) => call.args[0].input.Item?.pk === item.pk)).toEqual([]);
    expect(ddb.calls().length).toBe(callsAtAnswer);
  });

  it('a bank notice answered 503 for its time sends nothing after either: the provider sends the notice again', async () => {
    let releaseWork = () => {};
    const workHeld = new Promise<void>((resolve) => {
      releaseWork = resolve;
    });
    const account = storedAccount();
    const Key = { pk: account.pk, sk: account.sk };
    const handler = noticeHandler(async () => {
      await workHeld;
      // What the bank notice route does with a notice: an update of the account it names.
      await actingFor(TENANT, () =>
        documentClient().send(
          new UpdateCommand({
            TableName: TABLE,
            Key,
            UpdateExpression: 'SET debit_status = :s',
            ExpressionAttributeValues: { ':s': 'blocked' },
          }),
        ),
      );
      return { body: {} };
    });

    const answer = await invoke(
      handler,
      httpEvent({ method: 'POST', path: '/bank/notices' }),
      lambdaContext({ remainingMs: ANSWER_MARGIN_MS + 200 }),
    );
    expect(answer.statusCode).toBe(503);

    releaseWork();
    await sleep(100);
    expect(ddb.commandCalls(UpdateCommand).filter((call) => call.args[0].input.Key?.pk === account.pk)).toEqual([]);
  });
});
