import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as verificationWorker } from '#functions/verify-accounts/handlers/verification-worker';
import { ACCOUNT_ID, ddb, functionUnderTest, TENANT } from '#test/support/handler-harness';
import { countOf, lineWith } from '#test/support/metrics';
import { sqsBatch, sqsRecord } from '#test/support/records';
import { useSettlingHarness } from '#test/support/settling-harness';

/**
 * The verification worker's metrics: an account's settlement is counted once, when its
 * verification leaves `pending`. (Its outcomes are tested on DynamoDB Local, in
 * test/integration/verify-accounts/verification-worker.test.ts.)
 */
const { harness, givenAccount, updates } = useSettlingHarness();
const worker = functionUnderTest('VerificationWorker', verificationWorker);

const message = (id = ACCOUNT_ID) => sqsBatch(sqsRecord(`m-${id}`, { tenant: TENANT, id }));

describe('verification worker: metrics', () => {
  it('counts one VerificationSettled when it settles a pending account, the outcome in the line’s metadata', async () => {
    givenAccount(
      { account_number: '123451111' },
      { verification_status: 'invalid', status_reason: 'invalid_account', debit_status: 'failed', version: 2 },
    );

    const result = await worker(message());

    expect(result.batchItemFailures).toEqual([]);
    expect(updates()).toHaveLength(1);
    expect(countOf(harness.metrics, 'VerificationSettled')).toBe(1);
    expect(lineWith(harness.metrics, 'VerificationSettled')).toMatchObject({ verification_status: 'invalid' });
    const settled = harness.logs.map((line) => JSON.parse(line)).find((l) => l.message === 'verification settled');
    expect(settled).toMatchObject({ verify_account_id: ACCOUNT_ID, verification_status: 'invalid' });
    expect(harness.logs.join('\n')).not.toContain('123451111');
  });

  it('counts nothing for an account already settled (the same message delivered again)', async () => {
    givenAccount({ verification_status: 'valid', debit_status: 'valid' });

    await worker(message());

    expect(updates()).toHaveLength(0);
    expect(countOf(harness.metrics, 'VerificationSettled')).toBe(0);
  });

  it('counts nothing for an account that no longer exists, nor for a settlement whose write failed', async () => {
    await worker(message('00000000-0000-4000-8000-000000000000'));
    givenAccount();
    ddb.on(UpdateCommand).rejects(new Error('table unavailable'));

    const result = await worker(message());

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: `m-${ACCOUNT_ID}` }]);
    expect(ddb.commandCalls(GetCommand).length).toBeGreaterThan(0);
    expect(countOf(harness.metrics, 'VerificationSettled')).toBe(0);
  });
});
