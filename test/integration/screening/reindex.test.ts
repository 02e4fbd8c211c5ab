import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Person } from '#domain/person';
import { reindexPersons } from '#functions/screening/reindex-persons';
import { documentClient } from '#shared/db/document-client';
import { screeningWalk } from '#shared/db/persons/index';
import { personItem, screeningShardOf } from '#shared/db/persons/item';
import { personKeys } from '#shared/db/persons/keys';
import { useScreeningRuntime } from './support';

/**
 * The upgrade of a table written before the re-screens walked the persons
 * (docs/deploy.md#upgrading): a person indexed by folded name (`PNAME#…`) is found by no
 * walk until `npm run persons:reindex` moves it to its screening shard; a second run moves
 * nothing, and a person already in its shard is left alone.
 */
const { env } = useScreeningRuntime('tenant-reindex');

const person = (id: string): Person => ({
  id,
  tenant: 'tenant-reindex',
  customer_reference_id: `ref-${id}`,
  first_name: 'Lena',
  last_name: 'Legacy',
  has_ssn: false,
  status: 'verified',
  created_at: '2025-06-01T10:00:00.000Z',
  updated_at: '2025-06-01T10:00:00.000Z',
  identification_attempts: 1,
  version: 2,
});

async function walked(id: string): Promise<boolean> {
  const shard = screeningShardOf('tenant-reindex', id);
  let after: { tenant: string; id: string } | undefined;
  do {
    const page = await screeningWalk().page(shard, after);
    if (page.persons.some((found) => found.id === id)) return true;
    after = page.next;
  } while (after);
  return false;
}

describe('npm run persons:reindex', () => {
  it('moves a person indexed by folded name to its screening shard, once', async () => {
    const legacy = person('0d1f7a52-1111-4c3e-9f00-000000000001');
    const item = { ...personItem(legacy), gsi2pk: 'PNAME#legacy lena', gsi2sk: `tenant-reindex#${legacy.id}` };
    await documentClient().send(new PutCommand({ TableName: env.runtime.tableName, Item: item }));
    expect(await walked(legacy.id)).toBe(false);

    expect(await reindexPersons(documentClient(), env.runtime.tableName)).toBe(1);
    expect(await walked(legacy.id)).toBe(true);
    const stored = await documentClient().send(
      new GetCommand({ TableName: env.runtime.tableName, Key: personKeys.person('tenant-reindex', legacy.id) }),
    );
    expect(stored.Item).toMatchObject({ first_name: 'Lena', version: 2, status: 'verified' });

    expect(await reindexPersons(documentClient(), env.runtime.tableName)).toBe(0);
  });
});
