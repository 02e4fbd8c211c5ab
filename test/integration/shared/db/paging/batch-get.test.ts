import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#shared/db/document-client';
import { batchGetInOrder } from '#shared/db/paging/batch-get';
import { createTestTable } from '#test/integration/harness';

/** The ordered BatchGet a page's items are read with, on the real engine. */
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
});

const db = () => documentClient();

describe('ordered BatchGet', () => {
  beforeAll(async () => {
    const items = Array.from({ length: 25 }, (_, n) => {
      const id = `id-${String(n).padStart(2, '0')}`;
      return { pk: `T#t1#THING#${id}`, sk: 'THING', id };
    });
    await db().send(
      new BatchWriteCommand({ RequestItems: { [tableName]: items.map((Item) => ({ PutRequest: { Item } })) } }),
    );
  });

  const ids = (items: Record<string, unknown>[]) => items.map((item) => item.id);

  it('reads items by key in the order asked, dropping keys whose item is gone', async () => {
    const keys = ['id-07', 'missing', 'id-01', 'id-13'].map((id) => ({ pk: `T#t1#THING#${id}`, sk: 'THING' }));
    expect(ids(await batchGetInOrder(db(), tableName, keys))).toEqual(['id-07', 'id-01', 'id-13']);
  });
});
