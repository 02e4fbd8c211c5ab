import type { SQSEvent } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createVerifyAccount } from '#functions/verify-accounts/create-verify-account';
import { handler as expireHandler } from '#functions/verify-accounts/handlers/statement-code-expiry';
import { handler as workerHandler } from '#functions/verify-accounts/handlers/verification-worker';
import { createVerifyAccountBody } from '#functions/verify-accounts/request-schemas';
import { submitStatementCode } from '#functions/verify-accounts/submit-statement-code';
import { documentClient } from '#shared/db/document-client';
import { VerifyAccountRepository } from '#shared/db/verify-accounts/index';
import { setDependencies } from '#shared/dependencies';
import { createTestTable, functionUnderTest } from '../harness';

const expire = functionUnderTest('StatementCodeExpiry', expireHandler);
const worker = functionUnderTest('VerificationWorker', workerHandler);

const DAY = 24 * 60 * 60 * 1000;
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
});
afterEach(() => setDependencies({ now: undefined }));

const at = (date: Date) => setDependencies({ now: () => new Date(date) });

/** A control account whose statement code was sent at `sentAt`. */
async function codeSentAt(sentAt: Date, tenant: string) {
  at(sentAt);
  const body = createVerifyAccountBody.parse({
    account_number: `${String(sentAt.getTime()).slice(-9)}6789`,
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
    type: 'control',
  });
  const account = await createVerifyAccount(tenant, body);
  await worker({
    Records: [{ messageId: account.id, body: JSON.stringify({ tenant, id: account.id }) }],
  } as unknown as SQSEvent);
  return account.id;
}

describe('statement code expiry (daily schedule)', () => {
  it('cancels control for codes sent 5 days ago or more, and leaves younger and answered ones alone', async () => {
    const start = new Date('2026-03-02T10:00:00.000Z');
    const old = await codeSentAt(start, 'tenant-expiry');
    const answered = await codeSentAt(new Date(start.getTime() + 1000), 'tenant-expiry');
    await submitStatementCode('tenant-expiry', answered, '0000');
    const young = await codeSentAt(new Date(start.getTime() + 2 * DAY), 'tenant-expiry');

    at(new Date(start.getTime() + 5 * DAY));
    const result = await expire();

    const repository = new VerifyAccountRepository(documentClient(), tableName);
    expect((await repository.get('tenant-expiry', old))?.control_status).toBe('canceled');
    expect((await repository.get('tenant-expiry', answered))?.control_status).toBe('valid');
    expect((await repository.get('tenant-expiry', young))?.control_status).toBe('pending');
    expect(result.canceled).toBe(1);

    // A second run finds nothing left to do: canceled accounts left the index.
    expect(await expire()).toEqual({ canceled: 0, skipped: 0 });
  });
});
