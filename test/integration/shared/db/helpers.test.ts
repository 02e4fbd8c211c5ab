import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  type QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchGetInOrder, pageKeys, readPage } from '#shared/db/paging';
import { updateVersioned } from '#shared/db/versioned-update';
import { documentClient } from '#shared/dependencies';
import { ConflictError } from '#shared/errors';
import { createTestTable } from '../../harness';

/** The data helpers every repository shares, on the real engine. */
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

  it('sets, removes (explicitly and by undefined), stamps updated_at and bumps the version in one write', async () => {
    const item = await updateVersioned(
      db(),
      tableName,
      key,
      1,
      { set: { colour: 'blue', size: undefined }, remove: ['note'] },
      T0,
    );
    expect(item).toEqual({ ...key, version: 2, colour: 'blue', updated_at: T0.toISOString() });
  });

  it('refuses a write based on a stale version: 409 concurrent_update, nothing changed', async () => {
    const error = await updateVersioned(db(), tableName, key, 1, { set: { colour: 'green' } }, T0).catch((e) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('concurrent_update');
    const stored = await db().send(new GetCommand({ TableName: tableName, Key: key }));
    expect(stored.Item).toMatchObject({ colour: 'blue', version: 2 });
  });
});

describe('index paging', () => {
  const partition = 'T#t1#THING';
  const created = (n: number) => `2026-03-0${1 + (n % 5)}T10:00:00.000Z`;
  beforeAll(async () => {
    const items = Array.from({ length: 25 }, (_, n) => {
      const id = `id-${String(n).padStart(2, '0')}`;
      return {
        pk: `T#t1#THING#${id}`,
        sk: 'THING',
        id,
        status: n % 2 === 0 ? 'even' : 'odd',
        created_at: created(n),
        gsi1pk: partition,
        gsi1sk: `${created(n)}#${id}`,
      };
    });
    for (let i = 0; i < items.length; i += 25) {
      await db().send(
        new BatchWriteCommand({
          RequestItems: { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
    }
  });

  const ids = (items: Record<string, unknown>[]) => items.map((item) => item.id);

  it('reads newest first (created_at, then id, descending) and pages by skip and take', async () => {
    const all = await readPage(db(), tableName, { index: 'byTenant', partition }, { skip: 0, take: 25 });
    const sorted = [...all].sort((a, b) => `${b.created_at}#${b.id}`.localeCompare(`${a.created_at}#${a.id}`));
    expect(ids(all)).toEqual(ids(sorted));
    const page = await readPage(db(), tableName, { index: 'byTenant', partition }, { skip: 10, take: 5 });
    expect(ids(page)).toEqual(ids(all).slice(10, 15));
  });

  it('filters on projected attributes before counting the skip, and bounds time as [from, before)', async () => {
    const odd = await readPage(
      db(),
      tableName,
      { index: 'byTenant', partition, anyOf: { status: ['odd'] } },
      {
        skip: 2,
        take: 100,
      },
    );
    const allOdd = (await readPage(db(), tableName, { index: 'byTenant', partition }, { skip: 0, take: 25 })).filter(
      (item) => item.status === 'odd',
    );
    expect(ids(odd)).toEqual(ids(allOdd).slice(2));
    const window = await pageKeys(
      db(),
      tableName,
      { index: 'byTenant', partition, from: '2026-03-02T10:00:00.000Z', before: '2026-03-04T10:00:00.000Z' },
      { skip: 0, take: 100 },
    );
    expect(window).toHaveLength(10); // created 03-02 and 03-03, five each
  });

  it('reads no more of the index than a page needs when nothing is filtered: skip + take items', async () => {
    const scanned: number[] = [];
    const counting = {
      send: async (command: QueryCommand) => {
        const out = await db().send(command);
        scanned.push(out.ScannedCount ?? 0);
        return out;
      },
    } as unknown as DynamoDBDocumentClient;
    const page = await pageKeys(counting, tableName, { index: 'byTenant', partition }, { skip: 5, take: 3 });
    expect(page).toHaveLength(3);
    expect(scanned).toEqual([8]);
  });

  it('reads items by key in the order asked, dropping keys whose item is gone', async () => {
    const keys = ['id-07', 'missing', 'id-01', 'id-13'].map((id) => ({ pk: `T#t1#THING#${id}`, sk: 'THING' }));
    expect(ids(await batchGetInOrder(db(), tableName, keys))).toEqual(['id-07', 'id-01', 'id-13']);
  });
});
