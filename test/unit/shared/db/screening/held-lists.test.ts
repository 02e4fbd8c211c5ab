import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as identificationWorker } from '#functions/persons/handlers/identification-worker';
import {
  ddb,
  functionUnderTest,
  givenNoSanctionsListing,
  givenStored,
  TENANT,
  useHandlerHarness,
} from '#test/support/handler-harness';
import { sqsBatch, sqsRecord, storedPersonItem } from '#test/support/records';

/**
 * Screening fails closed: with no sanctions listing in the table, identification stores no
 * outcome at all (never `verified`); its message fails, to be retried and finally
 * dead-lettered. (On the local runtime, through the API: test/integration/screening/lists-unavailable.test.ts.)
 */
const harness = useHandlerHarness();
const worker = functionUnderTest('IdentificationWorker', identificationWorker);
const PERSON_ID = '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b';
const message = sqsBatch(sqsRecord('m1', { tenant: TENANT, id: PERSON_ID, identity_rev: 1 }));

beforeEach(() => {
  givenStored(storedPersonItem(TENANT, PERSON_ID), { status: 'rejected', identification_attempts: 1, version: 2 });
});

describe('the lists held for screening', () => {
  it('with no sanctions listing in the table, identification stores no outcome and its message fails, to be retried', async () => {
    givenNoSanctionsListing();

    const result = await worker(message);

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(harness.logs.some((line) => line.includes('ScreeningListsUnavailable'))).toBe(true);
  });

  it('with one (the harness’s), the same person is identified', async () => {
    const result = await worker(message);

    expect(result.batchItemFailures).toEqual([]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
  });
});
