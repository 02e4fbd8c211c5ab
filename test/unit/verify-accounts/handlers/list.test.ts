import { BatchGetCommand, type BatchGetCommandInput, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { VERIFICATION_STATUSES } from '#domain/verify-account';
import { handler as list } from '#functions/verify-accounts/handlers/list';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import {
  ACCOUNT_ID,
  accountGets,
  ddb,
  givenStored,
  listEvent,
  storedAccount,
  TABLE,
  TENANT,
  useHandlerHarness,
} from '#test/support/handler-harness';
import { invoke } from '#test/support/http-events';

useHandlerHarness();

const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** `count` accounts, newest first: account 0 is the newest. */
function accounts(count: number) {
  return Array.from({ length: count }, (_, n) =>
    storedAccount({ id: idOf(n), created_at: new Date(Date.UTC(2026, 0, 15, 12) - n * 60_000).toISOString() }),
  );
}

/**
 * The tenant's index answers `items` newest first (in pages of `pageSize`), as the slim
 * index projects them; BatchGet answers the full items in reverse order, as it may.
 */
function givenIndexed(items: Record<string, unknown>[], pageSize = 1000) {
  const slim = items.map(({ pk, sk, gsi1pk, gsi1sk, id, verification_status, debit_status }) => ({
    pk,
    sk,
    gsi1pk,
    gsi1sk,
    id,
    verification_status,
    debit_status,
  }));
  ddb.on(QueryCommand).callsFake((input: { ExclusiveStartKey?: { page: number } }) => {
    const page = input.ExclusiveStartKey?.page ?? 0;
    const slice = slim.slice(page * pageSize, (page + 1) * pageSize);
    const more = (page + 1) * pageSize < slim.length;
    return { Items: slice, LastEvaluatedKey: more ? { page: page + 1 } : undefined };
  });
  ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const wanted = input.RequestItems?.[TABLE]?.Keys ?? [];
    const found = items.filter((item) => wanted.some((k) => k.pk === item.pk && k.sk === item.sk));
    return { Responses: { [TABLE]: found.reverse() } };
  });
}

/** The page walk's queries: not the counts of recent entries a bookmark keeps (functions/shared/db/list-positions/bookmarks.ts). */
const walkQueries = () => ddb.commandCalls(QueryCommand).filter((call) => call.args[0].input.Select !== 'COUNT');

const queryInput = () => {
  const calls = walkQueries();
  expect(calls.length).toBeGreaterThan(0);
  return calls[0].args[0].input;
};

async function rejected(query: string) {
  const res = await invoke(list, listEvent(query));
  expect(res.statusCode).toBe(400);
  expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  return res.body.error_code as string;
}

describe('GET /verify/accounts: query validation', () => {
  it.each(['size=-1', 'size=501', 'size=abc', 'size=1.5', 'size=', 'size=1&size=2'])(
    'rejects %s: 400 invalid_size',
    async (q) => {
      expect(await rejected(q)).toBe('invalid_size');
    },
  );

  it.each([
    'index=-1',
    'index=1.5',
    'index=first',
    'index=0&index=1',
    'index=99999999999999999999',
    'index=10000000&size=500',
    'index=21&size=500',
    'index=101',
  ])('rejects %s: 400 invalid_index', async (q) => {
    expect(await rejected(q)).toBe('invalid_index');
  });

  it.each([
    'start_time=yesterday',
    'start_time=2026-01-16',
    'start_time=2026-13-01T00:00:00Z',
    'start_time=2026-02-30T00:00:00Z',
  ])('rejects %s: 400 invalid_start_time', async (q) => {
    expect(await rejected(q)).toBe('invalid_start_time');
  });

  it('rejects a start_time given twice: 400 invalid_start_time', async () => {
    expect(await rejected('start_time=2026-01-01T00:00:00Z&start_time=2026-01-02T00:00:00Z')).toBe(
      'invalid_start_time',
    );
  });

  it.each(['end_time=tomorrow', 'end_time=2026-01-16 10:00'])(
    'rejects a malformed end_time (%s): 400 invalid_end_time',
    async (q) => {
      expect(await rejected(q)).toBe('invalid_end_time');
    },
  );

  it.each([
    ['equal to', 'start_time=2026-01-16T00:00:00Z&end_time=2026-01-16T00:00:00Z'],
    ['before', 'start_time=2026-01-16T00:00:00Z&end_time=2026-01-15T23:59:59.999Z'],
    [
      'the same instant written in another offset as',
      'start_time=2026-01-16T00:00:00Z&end_time=2026-01-16T02:00:00%2B02:00',
    ],
  ])('rejects an end_time %s start_time: 400 invalid_end_time', async (_what, q) => {
    expect(await rejected(q)).toBe('invalid_end_time');
  });

  it.each([
    'verification_status=unknown',
    'verification_status=valid,unknown',
    'verification_status=valid&verification_status=VALID',
  ])('rejects a verification_status outside the enum (%s): 400 invalid_verification_status', async (q) => {
    expect(await rejected(q)).toBe('invalid_verification_status');
  });

  it.each([
    ['ownership_status=match', 'invalid_ownership_status'],
    ['control_status=sent', 'invalid_control_status'],
    ['debit_status=closed', 'invalid_debit_status'],
  ])('rejects %s: 400 %s', async (q, code) => {
    expect(await rejected(q)).toBe(code);
  });

  it.each([
    'account_number=123',
    'account_number=123456789012345678',
    'account_number=12ab5678',
    'account_number=1234--5678',
    'account_number=-12345678',
    'account_number=1234&account_number=5678',
  ])('rejects %s: 400 invalid_account_number', async (q) => {
    expect(await rejected(q)).toBe('invalid_account_number');
  });

  it.each(['id=not-a-uuid', `id=${ACCOUNT_ID}&id=${ACCOUNT_ID}`])(
    'rejects %s: 400 invalid_account_id (the code Orum documents for this filter)',
    async (q) => {
      expect(await rejected(q)).toBe('invalid_account_id');
    },
  );

  it.each(['page=2', 'verification_statuses=valid', 'limit=10', 'size=10&offset=5'])(
    'rejects a query parameter the contract does not know (%s): 400 unknown_parameter',
    async (q) => {
      expect(await rejected(q)).toBe('unknown_parameter');
    },
  );

  it.each(['size=0', 'size=500', 'index=0', 'index=100', 'index=20&size=500', 'size=007'])('accepts %s', async (q) => {
    const res = await invoke(list, listEvent(q));

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ accounts: [] });
  });
});

describe('GET /verify/accounts: filters reach DynamoDB', () => {
  const queriedPartitions = () => walkQueries().map((call) => call.args[0].input.ExpressionAttributeValues?.[':pk']);

  it('queries every verification status’s partition of the account index newest first, with no filter by default', async () => {
    const res = await invoke(list, listEvent());

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ accounts: [] });
    expect(queryInput()).toMatchObject({
      TableName: TABLE,
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk',
      ScanIndexForward: false,
    });
    expect(queriedPartitions().sort()).toEqual(
      VERIFICATION_STATUSES.map((status) => accountKeys.list(TENANT, status, 0)).sort(),
    );
    for (const call of ddb.commandCalls(QueryCommand)) expect(call.args[0].input.FilterExpression).toBeUndefined();
  });

  it('reads every shard of each status when the tenant’s list is sharded (TENANT_LIST_SHARDS)', async () => {
    vi.stubEnv('TENANT_LIST_SHARDS', JSON.stringify({ [TENANT]: 3 }));
    try {
      await invoke(list, listEvent('verification_status=valid'));
    } finally {
      vi.unstubAllEnvs();
    }
    expect(queriedPartitions().sort()).toEqual([0, 1, 2].map((shard) => accountKeys.list(TENANT, 'valid', shard)));
  });

  it.each([
    ['repeated parameters', 'verification_status=valid&verification_status=closed'],
    ['comma-separated values', 'verification_status=valid,closed'],
  ])(
    'serves a verification_status filter given as %s by key: only those statuses’ partitions are read',
    async (_how, q) => {
      await invoke(list, listEvent(q));

      expect(queriedPartitions().sort()).toEqual(
        ['closed', 'valid'].map((status) => accountKeys.list(TENANT, status, 0)),
      );
      for (const call of ddb.commandCalls(QueryCommand)) expect(call.args[0].input.FilterExpression).toBeUndefined();
    },
  );

  it('combines the other status filters with AND on the index, in the partitions of the verification statuses asked', async () => {
    await invoke(
      list,
      listEvent('verification_status=valid&debit_status=blocked,failed&ownership_status=full&control_status=canceled'),
    );

    expect(queriedPartitions()).toEqual([accountKeys.list(TENANT, 'valid', 0)]);
    const input = queryInput();
    expect(input.FilterExpression).toBe(
      '#ownership_status IN (:ownership_status0) AND #control_status IN (:control_status0) AND ' +
        '#debit_status IN (:debit_status0, :debit_status1)',
    );
    expect(input.ExpressionAttributeValues).toMatchObject({
      ':ownership_status0': 'full',
      ':control_status0': 'canceled',
      ':debit_status0': 'blocked',
      ':debit_status1': 'failed',
    });
  });

  it('bounds the sort key by start_time (inclusive) and end_time (exclusive), normalised to UTC', async () => {
    await invoke(list, listEvent('start_time=2026-01-15T02:00:00%2B02:00&end_time=2026-01-16T00:00:00Z'));

    const input = queryInput();
    expect(input.KeyConditionExpression).toBe('#pk = :pk AND #sk BETWEEN :from AND :before');
    expect(input.ExpressionAttributeValues).toMatchObject({
      ':from': '2026-01-15T00:00:00.000Z',
      ':before': '2026-01-16T00:00:00.000Z',
    });
  });

  it('bounds the sort key from below with start_time alone', async () => {
    await invoke(list, listEvent('start_time=2026-01-15T00:00:00Z'));

    expect(queryInput().KeyConditionExpression).toBe('#pk = :pk AND #sk >= :from');
    expect(queryInput().ExpressionAttributeValues).toMatchObject({ ':from': '2026-01-15T00:00:00.000Z' });
  });

  it('bounds the sort key from above with end_time alone', async () => {
    await invoke(list, listEvent('end_time=2026-01-16T00:00:00Z'));

    expect(queryInput().KeyConditionExpression).toBe('#pk = :pk AND #sk < :before');
    expect(queryInput().ExpressionAttributeValues).toMatchObject({ ':before': '2026-01-16T00:00:00.000Z' });
  });

  it('queries the account-number index when filtering by account_number', async () => {
    await invoke(list, listEvent('account_number=123456789'));

    expect(queryInput()).toMatchObject({
      IndexName: 'gsi2',
      ExpressionAttributeValues: { ':pk': accountKeys.byAccountNumber(TENANT, '123456789') },
      ScanIndexForward: false,
    });
  });

  it('filters by the digits of a hyphenated account_number (0010-1044595 finds 00101044595)', async () => {
    await invoke(list, listEvent('account_number=0010-1044595'));

    expect(queryInput()).toMatchObject({
      IndexName: 'gsi2',
      ExpressionAttributeValues: { ':pk': accountKeys.byAccountNumber(TENANT, '00101044595') },
    });
  });

  it('answers size=0 with an empty list and no DynamoDB read', async () => {
    const res = await invoke(list, listEvent('size=0&verification_status=valid'));

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ accounts: [] });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
    expect(accountGets()).toHaveLength(0);
  });
  it('accepts an end_time past 9999-12-31 UTC (RFC 3339 allows 9999-12-31T23:59:59-01:00) as after any start_time', async () => {
    const res = await invoke(list, listEvent('start_time=2026-01-01T00:00:00Z&end_time=9999-12-31T23:59:59-01:00'));

    expect(res.statusCode).toBe(200);
  });

  it('returns nothing for a start_time past 9999-12-31 UTC (no account was created after it)', async () => {
    givenStored(storedAccount());

    const res = await invoke(list, listEvent(`id=${ACCOUNT_ID}&start_time=9999-12-31T23:59:59-01:00`));

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ accounts: [] });
  });
});

describe('GET /verify/accounts: pages', () => {
  it('answers the presented accounts newest first, whatever order BatchGet answers in', async () => {
    givenIndexed(accounts(3));

    const res = await invoke(list, listEvent());

    expect(res.statusCode).toBe(200);
    expect(res.body.accounts.map((a: { id: string }) => a.id)).toEqual([idOf(0), idOf(1), idOf(2)]);
  });

  it('returns items index*size … index*size+size-1 (index is the page number)', async () => {
    givenIndexed(accounts(7));

    const res = await invoke(list, listEvent('index=1&size=3'));

    expect(res.body.accounts.map((a: { id: string }) => a.id)).toEqual([idOf(3), idOf(4), idOf(5)]);
  });

  it('answers a short last page and an empty page past the end', async () => {
    givenIndexed(accounts(7));

    const last = await invoke(list, listEvent('index=2&size=3'));
    const beyond = await invoke(list, listEvent('index=3&size=3'));

    expect(last.body.accounts.map((a: { id: string }) => a.id)).toEqual([idOf(6)]);
    expect(beyond.body).toEqual({ accounts: [] });
  });

  it('walks the index across DynamoDB query pages', async () => {
    givenIndexed(accounts(10), 3);

    const res = await invoke(list, listEvent('index=1&size=4'));

    expect(res.body.accounts.map((a: { id: string }) => a.id)).toEqual([idOf(4), idOf(5), idOf(6), idOf(7)]);
    expect(ddb.commandCalls(QueryCommand).length).toBeGreaterThan(1);
  });

  it('returns at most 100 accounts by default', async () => {
    givenIndexed(accounts(150));

    const res = await invoke(list, listEvent());

    expect(res.body.accounts).toHaveLength(100);
    expect(res.body.accounts[99].id).toBe(idOf(99));
  });

  it('returns up to 500 accounts with size=500', async () => {
    givenIndexed(accounts(600));

    const res = await invoke(list, listEvent('size=500'));

    expect(res.body.accounts).toHaveLength(500);
    expect(res.body.accounts[499].id).toBe(idOf(499));
  });

  it('asks again for the keys BatchGet left unprocessed', async () => {
    const items = accounts(3);
    givenIndexed(items);
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [TABLE]: [items[0]] },
        UnprocessedKeys: { [TABLE]: { Keys: [items[1], items[2]].map(({ pk, sk }) => ({ pk, sk })) } },
      })
      .resolves({ Responses: { [TABLE]: [items[2], items[1]] } });

    const res = await invoke(list, listEvent());

    expect(res.body.accounts.map((a: { id: string }) => a.id)).toEqual([idOf(0), idOf(1), idOf(2)]);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it('presents listed accounts without storage keys or secrets', async () => {
    givenIndexed([
      storedAccount({ id: idOf(0), ownership_secret: 'fake-ciphertext-3', statement_code_hash: 'ef'.repeat(32) }),
    ]);

    const res = await invoke(list, listEvent());

    expect(res.body.accounts).toHaveLength(1);
    for (const hidden of [
      'pk',
      'sk',
      'gsi1pk',
      'gsi1sk',
      'gsi2pk',
      'gsi2sk',
      'entity',
      'ownership_secret',
      'statement_code_hash',
      'tenant',
    ]) {
      expect(res.body.accounts[0]).not.toHaveProperty(hidden);
    }
    expect(res.raw).not.toContain('fake-ciphertext-3');
  });
});

describe('GET /verify/accounts?id=…', () => {
  it('reads the one account by key and returns it when it passes the other filters', async () => {
    givenStored(storedAccount({ verification_status: 'valid' }));

    const res = await invoke(list, listEvent(`id=${ACCOUNT_ID}&verification_status=valid,closed`));

    expect(res.body.accounts.map((a: { id: string }) => a.id)).toEqual([ACCOUNT_ID]);
    expect(ddb.commandCalls(GetCommand, { Key: { pk: `T#${TENANT}#VA#${ACCOUNT_ID}`, sk: 'VA' } })).toHaveLength(1);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it.each([
    ['a status filter', 'verification_status=pending'],
    ['a start_time after its creation', 'start_time=2026-01-15T10:00:00.001Z'],
    ['an end_time at its creation (exclusive)', 'end_time=2026-01-15T10:00:00.000Z'],
    ['another account number', 'account_number=99999999'],
    ['a page past the first', 'index=1&size=1'],
  ])('returns nothing when the account fails %s', async (_what, extra) => {
    givenStored(storedAccount({ verification_status: 'valid' }));

    const res = await invoke(list, listEvent(`id=${ACCOUNT_ID}&${extra}`));

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ accounts: [] });
  });

  it('includes an account created exactly at start_time', async () => {
    givenStored(storedAccount());

    const res = await invoke(list, listEvent(`id=${ACCOUNT_ID}&start_time=2026-01-15T10:00:00Z`));

    expect(res.body.accounts).toHaveLength(1);
  });

  it('returns nothing for another tenant’s id', async () => {
    givenStored(storedAccount({ tenant: 'partner-b' }));

    const res = await invoke(list, listEvent(`id=${ACCOUNT_ID}`));

    expect(res.body).toEqual({ accounts: [] });
  });
});
