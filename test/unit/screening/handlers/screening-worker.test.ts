import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Person } from '#domain/person';
import { nameKey } from '#domain/screening';
import { handler as screeningWorker } from '#functions/screening/handlers/screening-worker';
import { personItem } from '#shared/db/persons/item';
import { ddb, functionUnderTest, givenStored, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { countOf } from '#test/support/metrics';
import { sqsBatch, sqsRecord } from '#test/support/records';

/**
 * The screening worker's metrics: each verified person a sanctions entry restricts is one
 * PersonStatusChanged. (Re-screening itself is tested on DynamoDB Local.)
 */
const harness = useHandlerHarness();
const worker = functionUnderTest('ScreeningWorker', screeningWorker);

const PERSON_ID = '0b7e2f4a-5c6d-4e8f-9a0b-1c2d3e4f5a6b';
const NAME_KEY = nameKey('Ivan', 'Petrov');

function storedPerson(status: Person['status']) {
  const person: Person = {
    id: PERSON_ID,
    tenant: TENANT,
    customer_reference_id: 'cust-1',
    first_name: 'Ivan',
    last_name: 'Petrov',
    has_ssn: false,
    status,
    created_at: '2026-01-15T10:00:00.000Z',
    updated_at: '2026-01-15T10:00:00.000Z',
    identification_attempts: 1,
    version: 1,
  };
  return { ...personItem(person), identity_rev: 1 };
}

/** A sanctions entry of the name, and one person of that name with `status`. */
function givenListedPerson(status: Person['status']) {
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':pk': `SCREEN#sanctions#${NAME_KEY}` } })
    .resolves({ Items: [{ list: 'sanctions', entry_id: 'sdn-1', name: 'PETROV, Ivan', name_key: NAME_KEY }] });
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':pk': `PNAME#${NAME_KEY}` } })
    .resolves({ Items: [{ tenant: TENANT, id: PERSON_ID, status }] });
  givenStored(storedPerson(status), { status: 'restricted', version: 2 });
}

const message = () => sqsBatch(sqsRecord('m1', { name_key: NAME_KEY }));

describe('screening worker: metrics', () => {
  it('counts one PersonStatusChanged for a verified person it restricts', async () => {
    givenListedPerson('verified');

    const result = await worker(message());

    expect(result.batchItemFailures).toEqual([]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(1);
  });

  it('counts none for a person already restricted', async () => {
    givenListedPerson('restricted');

    await worker(message());

    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(countOf(harness.metrics, 'PersonStatusChanged')).toBe(0);
  });
});
