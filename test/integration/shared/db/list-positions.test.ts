import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTITY } from '#shared/db/entities';
import { type ListPages, ListPositions, WATERMARK_MARGIN_MS } from '#shared/db/list-positions/index';
import { positionKeys } from '#shared/db/list-positions/keys';
import type { IndexQuery } from '#shared/db/paging/index-query';
import { readPage } from '#shared/db/paging/index-walk';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { createTestTable } from '#test/integration/harness';

/**
 * Deep pages on DynamoDB Local: page N+1 by number is served from where page N ended (a
 * bookmark), and answers exactly what a walk from the top answers, entries inserted
 * between the two requests included; a cursor continues after the last entry served.
 * The index items each page reads are counted from the Query answers.
 */
const STATUSES = ['pending', 'valid', 'invalid', 'closed', 'unsupported'];
const SIZE = 50;
const T0 = Date.UTC(2026, 5, 1, 12);

let tableName: string;
let db: DynamoDBDocumentClient;
/** Index items the Queries of the client evaluated since the last reset. */
let scanned = 0;
/** The commands the client sent since the last reset, and the sequential stages they ran in. */
let sent: { command: string; count: boolean }[] = [];
let stages = 0;
let inFlight = 0;
/** Set to drop one item from the next BatchGet's answer, as if it were deleted after the index read. */
let dropOneRead = false;

beforeAll(async () => {
  let dynamoEndpoint: string;
  ({ tableName, dynamoEndpoint } = await createTestTable());
  db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: dynamoEndpoint }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  db.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      const scannedCount = (out.output as { ScannedCount?: number }).ScannedCount;
      if (typeof scannedCount === 'number') scanned += scannedCount;
      return out;
    },
    { step: 'initialize', name: 'countScanned' },
  );
  // A stage is a run of commands in flight together: one starting while none is in flight opens the next.
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (inFlight++ === 0) stages++;
      sent.push({
        command: String(context.commandName),
        count: (args.input as { Select?: string }).Select === 'COUNT',
      });
      try {
        const out = await next(args);
        const responses = (out.output as { Responses?: Record<string, unknown[]> }).Responses;
        if (dropOneRead && responses?.[tableName]?.length) {
          dropOneRead = false;
          responses[tableName].pop();
        }
        return out;
      } finally {
        inFlight--;
      }
    },
    { step: 'initialize', name: 'countStages' },
  );
});

const resetCounts = () => {
  scanned = 0;
  sent = [];
  stages = 0;
};
const countQueries = () => sent.filter((command) => command.count).length;

/**
 * What a test here may take before it gives up follows from its requests
 * (docs/testing.md#on-a-busy-machine): its entries, written in BatchWrites of 25, and its
 * pages, each served or walked from the top in up to 14 requests. 9 ms a request measured
 * idle; 110 ms in a full `npm test` with both cores kept busy, where 1,000 entries and 12
 * pages took 22 s of a flat 30 s.
 */
const MS_PER_REQUEST = 300;
const REQUESTS_PER_PAGE = 14;
const budget = (entries: number, pages: number) =>
  (Math.ceil(entries / 25) + pages * REQUESTS_PER_PAGE) * MS_PER_REQUEST;

let tenants = 0;
/** A tenant whose list spreads over five status partitions, `count` entries a second apart, the newest at `newest`. */
async function tenantWith(count: number, newest = T0 - 2 * 3600_000) {
  const tenant = `pages-${++tenants}`;
  await insert(tenant, count, newest);
  return tenant;
}

let ids = 0;
async function insert(tenant: string, count: number, newest: number) {
  const items = Array.from({ length: count }, (_, i) => {
    const id = `id-${String(++ids).padStart(8, '0')}`;
    const createdAt = new Date(newest - i * 1000).toISOString();
    return {
      ...accountKeys.account(tenant, id),
      entity: ENTITY.verifyAccount,
      id,
      created_at: createdAt,
      gsi1pk: accountKeys.list(tenant, STATUSES[ids % STATUSES.length] as string, 0),
      gsi1sk: accountKeys.order(createdAt, id),
    };
  });
  for (let i = 0; i < items.length; i += 25) {
    await db.send(
      new BatchWriteCommand({
        RequestItems: { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
}

const queryOf = (tenant: string): IndexQuery => ({
  index: 'byTenant',
  partitions: STATUSES.map((status) => accountKeys.list(tenant, status, 0)),
});
const listOf = (tenant: string): ListPages => ({
  kind: 'verify_accounts',
  source: () => ({ query: queryOf(tenant), bookmarkable: true }),
});
const idsOf = (items: Record<string, unknown>[]) => items.map((item) => item.id);

/** Page `index` by a walk from the top, as the list was served before list positions. */
const coldPage = async (tenant: string, index: number) =>
  idsOf(await readPage(db, tableName, queryOf(tenant), { skip: index * SIZE, take: SIZE }));

async function served(tenant: string, index: number, at: number) {
  resetCounts();
  const page = await new ListPositions(db, tableName).serve(
    tenant,
    listOf(tenant),
    { page: { skip: index * SIZE, take: SIZE } },
    new Date(at),
  );
  return { ids: idsOf(page.items), next: page.next, scanned, stages, counts: countQueries(), sent };
}

describe('page numbers served from a bookmark', () => {
  it(
    'page N+1 after page N reads about what page 0 reads, not every entry before it',
    async () => {
      const tenant = await tenantWith(1_000);
      const first = await served(tenant, 0, T0);
      for (let index = 1; index < 10; index++) await served(tenant, index, T0 + index * 1000);
      const deep = await served(tenant, 10, T0 + 11_000);
      expect(deep.ids).toEqual(await coldPage(tenant, 10));
      // A walk from the top evaluates the 550 entries up to the page's end; the bookmark, a page's worth.
      expect(deep.scanned).toBeLessThanOrEqual(2 * first.scanned);
    },
    budget(1_000, 12),
  );

  it.each([
    [7, 'fewer than a page'],
    [SIZE, 'exactly a page'],
    [73, 'more than a page'],
  ])(
    'answers what a walk from the top answers after %i inserts (%s) between the two requests',
    async (inserted) => {
      const tenant = await tenantWith(600);
      const first = await served(tenant, 0, T0);
      for (let index = 1; index <= 3; index++) await served(tenant, index, T0 + index * 1000);
      // New entries arrive at the top, created after the bookmark was made.
      await insert(tenant, inserted, T0 + 30_000);
      const next = await served(tenant, 4, T0 + 40_000);
      expect(next.ids).toEqual(await coldPage(tenant, 4));
      expect(next.ids).toHaveLength(SIZE);
      // The bookmark was used: about page 0's reads and the inserts (counted once, read once), not the 250 before the page.
      expect(next.scanned).toBeLessThanOrEqual(2 * first.scanned + 3 * inserted);
      expect(next.scanned).toBeLessThan(5 * SIZE + inserted);
    },
    budget(600 + 73, 6),
  );

  it('walks from the top when the bookmark expired, still exact', async () => {
    const tenant = await tenantWith(400);
    await served(tenant, 0, T0);
    const late = await served(tenant, 1, T0 + 16 * 60_000);
    expect(late.ids).toEqual(await coldPage(tenant, 1));
  });

  it('walks from the top when the list is near its watermark (the page is among the newest entries)', async () => {
    // Every entry within the last minute: a bookmark there cannot tell an insert above it from one below.
    const tenant = await tenantWith(200, T0 + 1000);
    await served(tenant, 0, T0 + 2000);
    await insert(tenant, 3, T0 + 3000);
    expect((await served(tenant, 1, T0 + 4000)).ids).toEqual(await coldPage(tenant, 1));
    expect(WATERMARK_MARGIN_MS).toBeGreaterThanOrEqual(60_000);
  });
});

describe('the round trips a page costs', () => {
  it('page 0 counts nothing: its walk from the top, then the BatchGet beside the cursor and bookmark Puts', async () => {
    const tenant = await tenantWith(300);
    const first = await served(tenant, 0, T0);
    expect(first.counts).toBe(0);
    // Before list positions a page was walk → BatchGet; the positions ride along with the BatchGet.
    expect(first.stages).toBe(2);
    expect(first.sent.filter((c) => c.command === 'PutItemCommand')).toHaveLength(2);
    // The bookmark it wrote is used: page 1 walks below it.
    const second = await served(tenant, 1, T0 + 1000);
    expect(second.ids).toEqual(await coldPage(tenant, 1));
    expect(second.scanned).toBeLessThanOrEqual(2 * first.scanned);
  });

  it('a walk from the top without a bookmark counts nothing either, and leaves one', async () => {
    const tenant = await tenantWith(400);
    const cold = await served(tenant, 3, T0);
    expect(cold.ids).toEqual(await coldPage(tenant, 3));
    expect(cold.counts).toBe(0);
    // The Get finding no bookmark, the walk, the BatchGet beside the Puts.
    expect(cold.stages).toBe(3);
    const next = await served(tenant, 4, T0 + 1000);
    expect(next.ids).toEqual(await coldPage(tenant, 4));
    expect(next.scanned).toBeLessThan(3 * SIZE);
  });

  it(
    'a bookmarked page counts once, beside the walk below the bookmark: Get, COUNT ∥ walk, BatchGet ∥ Puts',
    async () => {
      const tenant = await tenantWith(600);
      await served(tenant, 0, T0);
      const page = await served(tenant, 1, T0 + 1000);
      expect(page.ids).toEqual(await coldPage(tenant, 1));
      expect(page.counts).toBe(STATUSES.length);
      expect(page.stages).toBe(3);
    },
    budget(600, 3),
  );

  it(
    'pages made from a bookmark chain without counting again, exact under inserts between every request',
    async () => {
      const tenant = await tenantWith(600);
      await served(tenant, 0, T0);
      for (let index = 1; index <= 6; index++) {
        await insert(tenant, index * 4, T0 + 30_000 + index * 1000);
        const page = await served(tenant, index, T0 + 40_000 + index * 1000);
        expect(page.ids).toEqual(await coldPage(tenant, index));
        expect(page.counts).toBe(STATUSES.length);
        // Get, COUNT ∥ walk below, the keys shifted in from above, BatchGet ∥ Puts.
        expect(page.stages).toBe(4);
      }
    },
    budget(600 + 4 * 21, 13),
  );
});

describe('cursors', () => {
  it('continue after the last entry served: no entry repeated or skipped when entries are inserted meanwhile', async () => {
    const tenant = await tenantWith(260);
    const expected = await readPage(db, tableName, queryOf(tenant), { skip: 0, take: 1000 });
    const positions = new ListPositions(db, tableName);
    let page = await positions.serve(tenant, listOf(tenant), { page: { skip: 0, take: SIZE } }, new Date(T0));
    const seen = idsOf(page.items);
    let first = 0;
    while (page.next) {
      await insert(tenant, 3, T0 + 60_000 + ++first * 1000);
      scanned = 0;
      resetCounts();
      page = await positions.serve(tenant, listOf(tenant), { cursor: page.next, take: SIZE }, new Date(T0));
      expect(scanned).toBeLessThanOrEqual(3 * SIZE);
      // The cursor's Get, the walk below it, the BatchGet beside the next cursor's Put.
      expect(stages).toBe(3);
      seen.push(...idsOf(page.items));
    }
    expect(seen).toEqual(idsOf(expected));
  });

  it('continue past a page cut short by an item gone between the index and its read: the list goes on', async () => {
    const tenant = await tenantWith(120);
    const positions = new ListPositions(db, tableName);
    dropOneRead = true;
    const short = await positions.serve(tenant, listOf(tenant), { page: { skip: 0, take: SIZE } }, new Date(T0));
    expect(short.items).toHaveLength(SIZE - 1);
    const next = await positions.serve(
      tenant,
      listOf(tenant),
      { cursor: short.next as string, take: SIZE },
      new Date(T0),
    );
    expect(idsOf(next.items)).toEqual(await coldPage(tenant, 1));
    expect((await served(tenant, 1, T0 + 1000)).ids).toEqual(await coldPage(tenant, 1));
  });

  it('are refused when unknown, expired, of another tenant or of another list: 400 invalid_cursor', async () => {
    const tenant = await tenantWith(120);
    const positions = new ListPositions(db, tableName);
    const { next } = await positions.serve(tenant, listOf(tenant), { page: { skip: 0, take: SIZE } }, new Date(T0));
    expect(next).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const cursor = next as string;
    const refused = (promise: Promise<unknown>) =>
      expect(promise).rejects.toMatchObject({ statusCode: 400, code: 'invalid_cursor' });
    await refused(positions.serve(tenant, listOf(tenant), { cursor: 'A'.repeat(22), take: SIZE }, new Date(T0)));
    await refused(positions.serve(tenant, listOf(tenant), { cursor: `${cursor}x`, take: SIZE }, new Date(T0)));
    await refused(positions.serve(tenant, listOf(tenant), { cursor, take: SIZE }, new Date(T0 + 24 * 3600_000)));
    await refused(positions.serve('another', listOf('another'), { cursor, take: SIZE }, new Date(T0)));
    await refused(
      positions.serve(tenant, { ...listOf(tenant), kind: 'persons' }, { cursor, take: SIZE }, new Date(T0)),
    );
  });

  it("are refused when the stored walk names another tenant's partitions (a tampered or mis-built position): 400 invalid_cursor", async () => {
    const victim = await tenantWith(60);
    const holder = await tenantWith(60);
    const positions = new ListPositions(db, tableName);
    const { next } = await positions.serve(holder, listOf(holder), { page: { skip: 0, take: SIZE } }, new Date(T0));
    const key = positionKeys.cursor(holder, next as string);
    // The holder's own cursor item, its walk pointed at the victim's list partitions.
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #query = :query',
        ExpressionAttributeNames: { '#query': 'query' },
        ExpressionAttributeValues: { ':query': JSON.stringify(queryOf(victim)) },
      }),
    );
    await expect(
      positions.serve(holder, listOf(holder), { cursor: next as string, take: SIZE }, new Date(T0)),
    ).rejects.toMatchObject({ statusCode: 400, code: 'invalid_cursor' });
  });

  it('are random, a new one per page served, and name neither the tenant nor the list', async () => {
    const tenant = await tenantWith(60);
    const positions = new ListPositions(db, tableName);
    const a = await positions.serve(tenant, listOf(tenant), { page: { skip: 0, take: SIZE } }, new Date(T0));
    const b = await positions.serve(tenant, listOf(tenant), { page: { skip: 0, take: SIZE } }, new Date(T0));
    expect(a.next).not.toBe(b.next);
    expect(a.next).not.toContain(tenant);
  });
});
