import { BatchWriteCommand, type DynamoDBDocumentClient, type QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#shared/db/document-client';
import { pageKeys, readPage } from '#shared/db/paging/index-walk';
import { createTestTable } from '#test/integration/harness';

/** The merged index walk every list pages with, on the real engine. */
let tableName: string;
beforeAll(async () => {
  ({ tableName } = await createTestTable());
});

const db = () => documentClient();

/** The test table's client, counting Query rounds (calls sent while none was in flight) and index items read. */
function countingClient() {
  const reads = { rounds: 0, scanned: 0 };
  let inFlight = 0;
  const client = {
    send: async (command: QueryCommand) => {
      if (inFlight === 0) reads.rounds++;
      inFlight++;
      try {
        const out = await db().send(command);
        reads.scanned += out.ScannedCount ?? 0;
        return out;
      } finally {
        inFlight--;
      }
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, reads };
}

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
        event_type: n % 2 === 0 ? 'even' : 'odd',
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
    const all = await readPage(db(), tableName, { index: 'byTenant', partitions: [partition] }, { skip: 0, take: 25 });
    const sorted = [...all].sort((a, b) => `${b.created_at}#${b.id}`.localeCompare(`${a.created_at}#${a.id}`));
    expect(ids(all)).toEqual(ids(sorted));
    const page = await readPage(db(), tableName, { index: 'byTenant', partitions: [partition] }, { skip: 10, take: 5 });
    expect(ids(page)).toEqual(ids(all).slice(10, 15));
  });

  it('filters on projected attributes before counting the skip, and bounds time as [from, before)', async () => {
    const odd = await readPage(
      db(),
      tableName,
      { index: 'byTenant', partitions: [partition], anyOf: { event_type: ['odd'] } },
      {
        skip: 2,
        take: 100,
      },
    );
    const allOdd = (
      await readPage(db(), tableName, { index: 'byTenant', partitions: [partition] }, { skip: 0, take: 25 })
    ).filter((item) => item.event_type === 'odd');
    expect(ids(odd)).toEqual(ids(allOdd).slice(2));
    const window = await pageKeys(
      db(),
      tableName,
      {
        index: 'byTenant',
        partitions: [partition],
        from: '2026-03-02T10:00:00.000Z',
        before: '2026-03-04T10:00:00.000Z',
      },
      { skip: 0, take: 100 },
    );
    expect(window).toHaveLength(10); // created 03-02 and 03-03, five each
  });

  it('reads no more of the index than a page needs when nothing is filtered: skip + take items', async () => {
    const { client, reads } = countingClient();
    const page = await pageKeys(
      client,
      tableName,
      { index: 'byTenant', partitions: [partition] },
      { skip: 5, take: 3 },
    );
    expect(page).toHaveLength(3);
    expect(reads).toEqual({ rounds: 1, scanned: 8 });
  });

  describe('a list spread over several partitions (statuses, shards)', () => {
    const partitions = ['T#t2#THING#a', 'T#t2#THING#b', 'T#t2#THING#c'];
    // 60 items, dealt unevenly: partition a holds every item divisible by 4, c every odd one.
    const partitionOf = (n: number) => (n % 4 === 0 ? partitions[0] : n % 2 === 1 ? partitions[2] : partitions[1]);
    const minute = (n: number) => `2026-03-01T10:${String(n).padStart(2, '0')}:00.000Z`;
    const query = { index: 'byTenant' as const, partitions };
    beforeAll(async () => {
      const items = Array.from({ length: 60 }, (_, n) => {
        const id = `m-${String(n).padStart(2, '0')}`;
        return {
          pk: `T#t2#THING#${id}`,
          sk: 'THING',
          id,
          event_type: n % 3 === 0 ? 'third' : 'other',
          gsi1pk: partitionOf(n),
          gsi1sk: `${minute(n)}#${id}`,
        };
      });
      for (let i = 0; i < items.length; i += 25) {
        const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
        await db().send(new BatchWriteCommand({ RequestItems: { [tableName]: chunk } }));
      }
    });
    const newestFirst = Array.from({ length: 60 }, (_, n) => `m-${String(59 - n).padStart(2, '0')}`);

    it('merges the partitions into one newest-first order and pages it by skip and take', async () => {
      const keys = await pageKeys(db(), tableName, query, { skip: 0, take: 60 });
      expect(keys.map((k) => k.pk.replace('T#t2#THING#', ''))).toEqual(newestFirst);
      const page = await pageKeys(db(), tableName, query, { skip: 20, take: 7 });
      const all = await pageKeys(db(), tableName, query, { skip: 0, take: 60 });
      expect(page).toEqual(all.slice(20, 27));
    });

    it('bounds time as [from, before) in every partition it merges', async () => {
      const window = { from: minute(17), before: minute(42) };
      const keys = await pageKeys(db(), tableName, { ...query, ...window }, { skip: 3, take: 100 });
      const inWindow = newestFirst.filter((id) => Number(id.slice(2)) >= 17 && Number(id.slice(2)) < 42);
      expect(keys.map((k) => k.pk.replace('T#t2#THING#', ''))).toEqual(inWindow.slice(3));
    });

    it('reads about the page, not the partitions: index items read stay near skip + take', async () => {
      const { client, reads } = countingClient();
      expect(await pageKeys(client, tableName, query, { skip: 0, take: 10 })).toHaveLength(10);
      // One round: each partition read for twice its even share (plus 2), never more than the page.
      expect(reads.rounds).toBe(1);
      expect(reads.scanned).toBeLessThanOrEqual(10 * partitions.length);
    });

    it('filters on the index in every partition and tests unprojected attributes on the items read', async () => {
      const filtered = await readPage(
        db(),
        tableName,
        { ...query, anyOf: { event_type: ['third'] } },
        { skip: 1, take: 5 },
      );
      const tested = await readPage(
        db(),
        tableName,
        query,
        { skip: 1, take: 5 },
        (item) => item.event_type === 'third',
      );
      const expected = newestFirst.filter((id) => Number(id.slice(2)) % 3 === 0).slice(1, 6);
      expect(ids(filtered)).toEqual(expected);
      expect(ids(tested)).toEqual(expected);
    });
  });

  describe('a list whose partitions hold uneven shares (statuses differ in size)', () => {
    const partitions = Array.from({ length: 10 }, (_, i) => `T#t3#THING#${i}`);
    // Partition i holds 10 - i of every 55 items, spread evenly in time: half of them hold more than an even share.
    const pattern = partitions
      .flatMap((_, i) => Array.from({ length: 10 - i }, (_, j) => ({ i, at: (j + 0.5) / (10 - i) })))
      .sort((a, b) => a.at - b.at)
      .map(({ i }) => i);
    const partitionOf = (n: number) => partitions[pattern[n % pattern.length] ?? 0] as string;
    const at = (n: number) => new Date(Date.UTC(2026, 2, 1) + n * 1000).toISOString();
    const query = { index: 'byTenant' as const, partitions };
    beforeAll(async () => {
      const items = Array.from({ length: 1000 }, (_, n) => {
        const id = `u-${String(n).padStart(3, '0')}`;
        return { pk: `T#t3#THING#${id}`, sk: 'THING', id, gsi1pk: partitionOf(n), gsi1sk: `${at(n)}#${id}` };
      });
      for (let i = 0; i < items.length; i += 25) {
        const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
        await db().send(new BatchWriteCommand({ RequestItems: { [tableName]: chunk } }));
      }
    });

    it('merges them in one or two rounds of side-by-side reads, reading about the page', async () => {
      const { client, reads } = countingClient();
      const keys = await pageKeys(client, tableName, query, { skip: 0, take: 100 });
      const newest = Array.from({ length: 100 }, (_, n) => `T#t3#THING#u-${String(999 - n).padStart(3, '0')}`);
      expect(keys.map((key) => key.pk)).toEqual(newest);
      // Not a round per partition that runs dry: the first reads leave room for uneven shares,
      // and partitions about to run dry are read again together; nor the whole page from each.
      expect(reads.rounds).toBeLessThanOrEqual(2);
      expect(reads.scanned).toBeLessThanOrEqual(3 * 100);
    });
  });
});
