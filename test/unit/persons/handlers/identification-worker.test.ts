import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Person } from '#domain/person';
import { handler as identificationWorker } from '#functions/persons/handlers/identification-worker';
import { ddb, functionUnderTest, givenStored, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { countOf, lineWith } from '#test/support/metrics';
import { sqsBatch, sqsRecord, storedPersonItem } from '#test/support/records';

/**
 * The identification worker's metrics: every run that stores an outcome is one
 * IdentificationCompleted; a run that moves the person to another status is also one
 * PersonStatusChanged. (Identification itself is tested on DynamoDB Local, in
 * test/integration/persons.)
 */
const harness = useHandlerHarness();
const worker = functionUnderTest('IdentificationWorker', identificationWorker);

const PERSON_ID = '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b';

/** A person with no SSN: identification rejects it (`incomplete_ssn`) whatever the lists say. */
const storedPerson = (over: Partial<Person> = {}) => storedPersonItem(TENANT, PERSON_ID, over);

const message = (extra: Record<string, unknown> = {}) =>
  sqsBatch(sqsRecord('m1', { tenant: TENANT, id: PERSON_ID, identity_rev: 1, ...extra }));

describe('identification worker: metrics', () => {
  it('counts IdentificationCompleted and PersonStatusChanged when a created person gets its outcome', async () => {
    const item = storedPerson();
    givenStored(item, { status: 'rejected', identification_attempts: 1, version: 2 });

    const result = await worker(message());

    expect(result.batchItemFailures).toEqual([]);
    expect(ddb.commandCalls(UpdateCommand)[0].args[0].input.ExpressionAttributeValues).toMatchObject({
      ':status': 'rejected',
    });
    expect(countOf(harness.metrics, 'IdentificationCompleted')).toBe(1);
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(1);
    expect(lineWith(harness.metrics, 'IdentificationCompleted')).toMatchObject({ identification_status: 'rejected' });
  });

  it('counts the automatic retry’s outcome but no status change when it rejects the person again', async () => {
    givenStored(storedPerson({ status: 'rejected', identification_attempts: 1 }), {
      status: 'rejected',
      identification_attempts: 2,
      version: 2,
    });

    await worker(message({ retry: true }));

    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(countOf(harness.metrics, 'IdentificationCompleted')).toBe(1);
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(0);
  });

  it('counts nothing for a message about an older identity revision', async () => {
    givenStored({ ...storedPerson(), identity_rev: 2 });

    await worker(message());

    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(harness.metrics).toEqual([]);
  });
});

describe('identification worker: the SSN ciphertext', () => {
  const written = () => ddb.commandCalls(UpdateCommand)[0].args[0].input;
  // The person has no address: rejected (`incomplete_address`) whatever the SSN.
  beforeEach(() => {
    vi.spyOn(harness.cipher, 'decrypt').mockResolvedValue('123456789');
  });

  it('deletes it with an explicit REMOVE in the write that stores the retry’s rejection, and marks has_ssn false', async () => {
    givenStored({
      ...storedPerson({ status: 'rejected', identification_attempts: 1 }),
      ssn_secret: 'local:ciphertext',
    });

    await worker(message({ retry: true }));

    expect(written().UpdateExpression).toMatch(/REMOVE .*#ssn_secret/);
    expect(written().ExpressionAttributeValues).not.toHaveProperty(':ssn_secret');
    expect(written().ExpressionAttributeValues).toMatchObject({ ':has_ssn': false, ':identification_attempts': 2 });
  });

  it('keeps it in the write that stores a first rejection, for the automatic retry', async () => {
    givenStored({ ...storedPerson(), ssn_secret: 'local:ciphertext' });

    await worker(message());

    expect(written().ExpressionAttributeValues).toMatchObject({ ':status': 'rejected', ':identification_attempts': 1 });
    expect(written().UpdateExpression).not.toContain('ssn_secret');
    expect(written().UpdateExpression).not.toContain('has_ssn');
  });
});
