import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifyPerson } from '#functions/persons/identify-person';
import type { LocalRuntime } from '#lib/local/runtime';
import { documentClient } from '#shared/db/document-client';
import { personKeys } from '#shared/db/persons/keys';
import { createLogger } from '#shared/logger';
import { api, startTestRuntime } from '../harness';
import { personBody } from './support';

/**
 * docs/api.md#sensitive-values: a person's SSN ciphertext is kept only while automatic
 * identification still needs it. Without the pipeline, so that each identification run
 * (the first, and the automatic retry of a rejection) is taken one at a time.
 */
const TENANT = 'tenant-ssn-retention';
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [] });
  call = api(runtime, await runtime.mintToken(TENANT));
});

afterAll(async () => {
  await runtime?.stop();
});

async function storedItem(id: string): Promise<Record<string, unknown>> {
  const out = await documentClient().send(
    new GetCommand({ TableName: runtime.tableName, Key: personKeys.person(TENANT, id), ConsistentRead: true }),
  );
  return out.Item as Record<string, unknown>;
}

async function posted(body: Record<string, unknown>): Promise<string> {
  const response = await call.post('/persons', body);
  expect(response.status).toBe(200);
  return response.body.person.id;
}

const run = (id: string, retry?: true) =>
  identifyPerson({ tenant: TENANT, id, identity_rev: 1, ...(retry && { retry }) }, createLogger());

describe('the person SSN ciphertext', () => {
  it('is kept after a first rejection, for the automatic retry, and deleted in the write that stores the retry’s outcome', async () => {
    const id = await posted(personBody({ date_of_birth: '2015-06-01' }));
    expect(await storedItem(id)).toHaveProperty('ssn_secret');

    await run(id);
    const rejected = await storedItem(id);
    expect(rejected).toMatchObject({ status: 'rejected', identification_attempts: 1 });
    expect(rejected).toHaveProperty('ssn_secret');

    await run(id, true);
    const final = await storedItem(id);
    expect(final).toMatchObject({ status: 'rejected', identification_attempts: 2, has_ssn: false });
    expect(final).not.toHaveProperty('ssn_secret');
    expect(final.version).toBe(Number(rejected.version) + 1);
  });

  it('is deleted in the write that stores a verification, on the first run', async () => {
    const id = await posted(personBody());

    await run(id);

    const verified = await storedItem(id);
    expect(verified).toMatchObject({ status: 'verified', has_ssn: false });
    expect(verified).not.toHaveProperty('ssn_secret');
  });

  it('is deleted by DELETE, even while the person still waits for identification', async () => {
    const id = await posted(personBody());

    const closed = await call.delete(`/persons/${id}`);

    expect(closed.body.person.status).toBe('closed');
    expect(await storedItem(id)).not.toHaveProperty('ssn_secret');
  });

  it('serves a change of identity data made while the retry is pending: it is identified with the kept SSN', async () => {
    const id = await posted(personBody({ date_of_birth: '2015-06-01' }));
    await run(id);

    const fixed = await call.patch(`/persons/${id}`, { date_of_birth: '1985-06-01' });
    expect(fixed.body.person.status).toBe('created');
    expect(await storedItem(id)).toHaveProperty('ssn_secret');
    await identifyPerson({ tenant: TENANT, id, identity_rev: 2 }, createLogger());

    const verified = await storedItem(id);
    expect(verified.status).toBe('verified');
    expect(verified).not.toHaveProperty('ssn_secret');
  });
});
