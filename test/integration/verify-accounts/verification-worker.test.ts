import type { SQSEvent } from 'aws-lambda';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createVerifyAccount } from '#functions/verify-accounts/create-verify-account';
import { handler as workerHandler } from '#functions/verify-accounts/handlers/verification-worker';
import { createVerifyAccountBody } from '#functions/verify-accounts/request-schemas';
import { documentClient } from '#shared/db/document-client';
import { ListPositions } from '#shared/db/list-positions/index';
import { AccountList, VerifyAccountRepository } from '#shared/db/verify-accounts/index';
import { setDependencies } from '#shared/dependencies';
import { setLogSink } from '#shared/logger';
import { FakeNotifier } from '#test/support/fakes';
import { createTestTable, functionUnderTest } from '../harness';

const worker = functionUnderTest('VerificationWorker', workerHandler);

/**
 * The verification worker against DynamoDB Local: every sandbox outcome, ownership, the
 * statement-code credit (the holder's email is the statement-code email worker's), and running
 * twice on the same message.
 */
let tableName: string;
let notifier: FakeNotifier;
const logs: string[] = [];
const repository = () => new VerifyAccountRepository(documentClient(), tableName);
const accounts = () => new AccountList(repository(), new ListPositions(documentClient(), tableName));

beforeAll(async () => {
  ({ tableName } = await createTestTable());
});
beforeEach(() => {
  notifier = new FakeNotifier();
  setDependencies({ notifier });
  logs.length = 0;
  setLogSink((line) => logs.push(line));
});

let n = 0;
async function created(body: Record<string, unknown>) {
  const parsed = createVerifyAccountBody.parse({
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
    ...body,
  });
  return createVerifyAccount(`tenant-${++n}`, parsed);
}

const message = (tenant: string, id: string, messageId = `m-${id}`) =>
  ({
    Records: [{ messageId, body: JSON.stringify({ tenant, id }), attributes: { ApproximateReceiveCount: '1' } }],
  }) as unknown as SQSEvent;

async function verified(body: Record<string, unknown>) {
  const account = await created(body);
  const result = await worker(message(account.tenant, account.id));
  expect(result.batchItemFailures).toEqual([]);
  const found = await repository().getWithSecret(account.tenant, account.id);
  return { ...found!, tenant: account.tenant };
}

describe('verification worker: the sandbox outcomes', () => {
  it.each([
    [
      '0001111',
      {
        verification_status: 'invalid',
        status_reason: 'invalid_account',
        debit_status: 'failed',
        debit_status_reason: 'invalid_account',
      },
    ],
    [
      '0002222',
      {
        verification_status: 'closed',
        status_reason: 'closed_account',
        debit_status: 'failed',
        debit_status_reason: 'closed_account',
      },
    ],
    [
      '0003333',
      { verification_status: 'failed', status_reason: 'unavailable_financial_institution', debit_status: 'failed' },
    ],
    ['0004444', { verification_status: 'valid', debit_status: 'blocked', debit_status_reason: 'debit_blocked' }],
    [
      '0005555',
      {
        verification_status: 'invalid',
        status_reason: 'blocked_account',
        debit_status: 'blocked',
        debit_status_reason: 'blocked_account',
      },
    ],
    ['0006789', { verification_status: 'valid', debit_status: 'valid' }],
  ])('account ending %s settles as the table says', async (account_number, expected) => {
    const { account } = await verified({ account_number });
    expect(account).toMatchObject(expected);
    if (expected.verification_status === 'valid') expect(account.status_reason).toBeUndefined();
  });

  it('reads the last four digits of a hyphenated account number, not its last four characters', async () => {
    const { account } = await verified({ account_number: '1234-111-1' });
    expect(account).toMatchObject({ account_number: '12341111', verification_status: 'invalid' });
  });

  it('lets the holder name select a status', async () => {
    const { account } = await verified({ account_number: '0006789', account_holder_name: 'Closed' });
    expect(account).toMatchObject({ verification_status: 'closed', status_reason: 'closed_account' });
  });
});

describe('verification worker: ownership', () => {
  it('matches every field (full) and deletes the SSN ciphertext once the result is stored', async () => {
    const { account, ownershipSecret } = await verified({
      account_number: '0006789',
      type: 'status_ownership',
      person: { first_name: 'JANE', last_name: 'doe', ssn: '078051120', phone_number: '+14155550123' },
    });
    expect(account.ownership_status).toBe('full');
    expect(account.person).toMatchObject({
      first_name_match: 'match',
      last_name_match: 'match',
      ssn_match: 'match',
      phone_number_match: 'match',
    });
    expect(ownershipSecret).toBeUndefined();
  });

  it('is partial when some fields match', async () => {
    const { account } = await verified({
      account_number: '0006789',
      type: 'status_ownership',
      person: { first_name: 'Jane', last_name: 'Smith', ssn: '111111111' },
    });
    expect(account.ownership_status).toBe('partial');
    expect(account.person).toMatchObject({
      first_name_match: 'match',
      last_name_match: 'not_a_match',
      ssn_match: 'not_a_match',
    });
  });

  it('is not_found when the bank has no record (account ending 9999)', async () => {
    const { account } = await verified({
      account_number: '0009999',
      type: 'status_ownership',
      business: { business_name: 'Jane Doe', tax_id: '123456780' },
    });
    expect(account.ownership_status).toBe('not_found');
    expect(account.business).toMatchObject({ business_name_match: 'not_found', tax_id_match: 'not_found' });
  });

  it('is not_a_match when no field matches', async () => {
    const { account } = await verified({
      account_number: '0006789',
      type: 'status_ownership',
      business: { business_name: 'Globex', tax_id: '111111111', phone_number: '+14155551111' },
    });
    expect(account.ownership_status).toBe('not_a_match');
  });
});

describe('verification worker: control', () => {
  it('sends the credit once the account is valid and leaves the holder’s email to the statement-code email worker', async () => {
    const { account } = await verified({ account_number: '0006789', type: 'control', email: 'jane@example.com' });
    expect(account).toMatchObject({ verification_status: 'valid', control_status: 'pending' });
    expect(account.statement_code_sent_at).toBeDefined();
    expect(account.statement_code_notified_at).toBeUndefined();
    expect(notifier.sent).toHaveLength(0);
  });

  it('cancels control and sends nothing when the account is not valid', async () => {
    const { account } = await verified({ account_number: '0002222', type: 'control', email: 'jane@example.com' });
    expect(account).toMatchObject({ verification_status: 'closed', control_status: 'canceled' });
    expect(account.statement_code_sent_at).toBeUndefined();
    expect(notifier.sent).toHaveLength(0);
  });
});

describe('verification worker: safe to run twice', () => {
  it('a second delivery of the same message changes nothing and sends no email', async () => {
    const account = await created({ account_number: '0006789', type: 'control', email: 'jane@example.com' });
    await worker(message(account.tenant, account.id));
    const first = await repository().get(account.tenant, account.id);
    await worker(message(account.tenant, account.id));
    const second = await repository().get(account.tenant, account.id);
    expect(second).toEqual(first);
    expect(notifier.sent).toHaveLength(0);
  });

  it('reports a malformed message as failed so it reaches the dead-letter queue', async () => {
    const bad = { Records: [{ messageId: 'bad-1', body: '{"tenant":"t"}', attributes: {} }] } as unknown as SQSEvent;
    expect((await worker(bad)).batchItemFailures).toEqual([{ itemIdentifier: 'bad-1' }]);
  });

  it('never logs the SSN or the account number', async () => {
    await verified({
      account_number: '0006789',
      type: 'status_ownership',
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' },
    });
    const text = logs.join('\n');
    expect(text).not.toContain('078051120');
    expect(text).not.toContain('0006789');
  });
});

describe('verification worker: the list index follows the status', () => {
  it.each([1, 4])(
    'moves the account from the pending to the valid list partition when it settles (%i shard(s))',
    async (shards) => {
      const account = await created({ account_number: '0006789' });
      const listed = async (status: 'pending' | 'valid') =>
        (
          await accounts().page(account.tenant, { verificationStatus: [status] }, { page: { skip: 0, take: 10 } })
        ).items.map((a) => a.id);
      vi.stubEnv('TENANT_LIST_SHARDS', JSON.stringify({ [account.tenant]: shards }));
      try {
        expect(await listed('pending')).toEqual([account.id]);
        expect(await worker(message(account.tenant, account.id))).toEqual({ batchItemFailures: [] });
        expect(await listed('valid')).toEqual([account.id]);
        expect(await listed('pending')).toEqual([]);
        const all = (await accounts().page(account.tenant, {}, { page: { skip: 0, take: 10 } })).items;
        expect(all.map((a) => [a.id, a.verification_status])).toEqual([[account.id, 'valid']]);
      } finally {
        vi.unstubAllEnvs();
      }
    },
  );
});
