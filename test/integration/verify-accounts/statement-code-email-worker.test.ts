import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmailMessage } from '#domain/notifications';
import { createVerifyAccount } from '#functions/verify-accounts/create-verify-account';
import { handler as emailWorkerHandler } from '#functions/verify-accounts/handlers/statement-code-email-worker';
import { handler as verificationWorkerHandler } from '#functions/verify-accounts/handlers/verification-worker';
import { createVerifyAccountBody } from '#functions/verify-accounts/request-schemas';
import { documentClient } from '#shared/db/document-client';
import { VerifyAccountRepository } from '#shared/db/verify-accounts/index';
import { setDependencies } from '#shared/dependencies';
import { setLogSink } from '#shared/logger';
import { DisabledNotifier } from '#shared/notify/notifier';
import { FakeNotifier } from '#test/support/fakes';
import { createTestTable, functionUnderTest } from '../harness';

const emailWorker = functionUnderTest('StatementCodeEmailWorker', emailWorkerHandler);
const verificationWorker = functionUnderTest('VerificationWorker', verificationWorkerHandler);

/**
 * The statement-code email worker against DynamoDB Local: the holder's email once the code
 * is sent, exactly once, and a failed send retried rather than lost.
 */
let tableName: string;
let notifier: FakeNotifier;
const repository = () => new VerifyAccountRepository(documentClient(), tableName);

beforeAll(async () => {
  ({ tableName } = await createTestTable());
});
beforeEach(() => {
  notifier = new FakeNotifier();
  setDependencies({ notifier });
  setLogSink(() => {});
});
afterEach(() => setDependencies({ now: undefined }));

let n = 0;
const message = (tenant: string, id: string) =>
  ({
    Records: [
      { messageId: `m-${id}`, body: JSON.stringify({ tenant, id }), attributes: { ApproximateReceiveCount: '1' } },
    ],
  }) as unknown as SQSEvent;

/** A control account whose statement code the verification worker has sent. */
async function codeSent(body: Record<string, unknown> = {}) {
  const account = await createVerifyAccount(
    `tenant-email-${++n}`,
    createVerifyAccountBody.parse({
      routing_number: '021000021',
      account_holder_name: 'Jane Doe',
      account_number: '0006789',
      type: 'control',
      email: 'jane@example.com',
      ...body,
    }),
  );
  expect((await verificationWorker(message(account.tenant, account.id))).batchItemFailures).toEqual([]);
  return account;
}

describe('statement-code email worker', () => {
  it('emails the holder once the code is sent, without the code or the account number, and records it', async () => {
    const account = await codeSent();
    expect((await emailWorker(message(account.tenant, account.id))).batchItemFailures).toEqual([]);
    expect(notifier.sent).toHaveLength(1);
    expect(notifier.sent[0]?.to).toBe('jane@example.com');
    expect(notifier.sent[0]?.text).toContain('6789');
    expect(notifier.sent[0]?.text).not.toContain('0006789');
    expect(notifier.sent[0]?.text).not.toContain('0000');
    expect((await repository().get(account.tenant, account.id))?.statement_code_notified_at).toBeDefined();
  });

  it('a second delivery of the same message sends no second email', async () => {
    const account = await codeSent();
    await emailWorker(message(account.tenant, account.id));
    await emailWorker(message(account.tenant, account.id));
    expect(notifier.sent).toHaveLength(1);
  });

  it('fails the message when the email cannot be sent, records nothing, and sends it on the retry', async () => {
    const account = await codeSent();
    setDependencies({
      notifier: {
        send: async (_: EmailMessage) => {
          throw new Error('SES is down');
        },
      },
    });
    expect((await emailWorker(message(account.tenant, account.id))).batchItemFailures).toEqual([
      { itemIdentifier: `m-${account.id}` },
    ]);
    expect((await repository().get(account.tenant, account.id))?.statement_code_notified_at).toBeUndefined();
    setDependencies({ notifier });
    expect((await emailWorker(message(account.tenant, account.id))).batchItemFailures).toEqual([]);
    expect(notifier.sent).toHaveLength(1);
  });

  it('sends nothing once the code has expired, nor without a sender configured', async () => {
    const expired = await codeSent();
    setDependencies({ now: () => new Date(Date.now() + 6 * 24 * 3600 * 1000) });
    await emailWorker(message(expired.tenant, expired.id));
    setDependencies({ now: undefined, notifier: new DisabledNotifier() });
    const unsent = await codeSent();
    expect((await emailWorker(message(unsent.tenant, unsent.id))).batchItemFailures).toEqual([]);
    expect(notifier.sent).toHaveLength(0);
    expect((await repository().get(unsent.tenant, unsent.id))?.statement_code_notified_at).toBeUndefined();
  });

  it('reports a malformed message as failed so it reaches the dead-letter queue', async () => {
    const bad = { Records: [{ messageId: 'bad-1', body: '{"tenant":"t"}', attributes: {} }] } as unknown as SQSEvent;
    expect((await emailWorker(bad)).batchItemFailures).toEqual([{ itemIdentifier: 'bad-1' }]);
  });
});
