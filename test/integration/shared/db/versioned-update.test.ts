import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#shared/db/document-client';
import { updateVersioned } from '#shared/db/versioned-update';
import { ConflictError } from '#shared/errors';
import { createTestTable } from '#test/integration/harness';

/** The versioned write every repository's change goes through, on the real engine. */
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
});

const db = () => documentClient();
const T0 = new Date('2026-03-02T10:00:00.000Z');

describe('updateVersioned', () => {
  const key = { pk: 'T#t1#THING#1', sk: 'THING' };
  beforeAll(async () => {
    await db().send(
      new PutCommand({ TableName: tableName, Item: { ...key, version: 1, colour: 'red', size: 3, note: 'x' } }),
    );
  });

  it('sets, removes exactly what remove names, stamps updated_at and bumps the version in one write', async () => {
    const item = await updateVersioned(db(), tableName, key, 1, { set: { colour: 'blue' }, remove: ['note'] }, T0);
    expect(item).toEqual({ ...key, version: 2, colour: 'blue', size: 3, updated_at: T0.toISOString() });
  });

  it('refuses a write based on a stale version: 409 concurrent_update, nothing changed', async () => {
    const error = await updateVersioned(db(), tableName, key, 1, { set: { colour: 'green' } }, T0).catch((e) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('concurrent_update');
    const stored = await db().send(new GetCommand({ TableName: tableName, Key: key }));
    expect(stored.Item).toMatchObject({ colour: 'blue', version: 2 });
  });
});
