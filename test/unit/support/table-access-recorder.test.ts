import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { requestsOf } from '#shared/db/command-requests';
import { TABLE_SCHEMA } from '#shared/db/schema';
import {
  assertWithinGrants,
  grantedUses,
  rowFunction,
  runAsRow,
  ungranted,
  usesOf,
} from '#test/support/table-access-recorder';

// The drift test's own rules (test/support/table-access-recorder.ts): which IAM action each
// document-client command needs, and when a grant covers it.

const TableName = 'table';
const key = (pk: string) => ({ pk, sk: 'S' });

describe('the IAM actions a command needs', () => {
  it('maps each single-item command to its action on the item’s partition key', () => {
    expect(requestsOf(new GetCommand({ TableName, Key: key('A#1') }))).toEqual([{ action: 'GetItem', pk: 'A#1' }]);
    expect(requestsOf(new PutCommand({ TableName, Item: key('A#2') }))).toEqual([{ action: 'PutItem', pk: 'A#2' }]);
    expect(requestsOf(new UpdateCommand({ TableName, Key: key('A#3') }))).toEqual([
      { action: 'UpdateItem', pk: 'A#3' },
    ]);
    expect(requestsOf(new DeleteCommand({ TableName, Key: key('A#4') }))).toEqual([
      { action: 'DeleteItem', pk: 'A#4' },
    ]);
  });

  it('names a Query of the table as Query on the partition key its key condition names, and a Query of an index by the index’s name in TABLE_SCHEMA', () => {
    expect(
      requestsOf(
        new QueryCommand({ TableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'A#1' } }),
      ),
    ).toEqual([{ action: 'Query', pk: 'A#1' }]);
    const byTenant = TABLE_SCHEMA.indexes.byTenant.name;
    expect(requestsOf(new QueryCommand({ TableName, IndexName: byTenant }))).toEqual([
      { action: 'Query', index: 'byTenant' },
    ]);
  });

  it('reads the partition key of a table Query through attribute names, beside a sort-key condition, in either order', () => {
    const query = (KeyConditionExpression: string, names?: Record<string, string>) =>
      requestsOf(
        new QueryCommand({
          TableName,
          KeyConditionExpression,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':pk': 'T#acme#EVT#1', ':sk': 'ATTEMPT#' },
        }),
      );
    expect(query('#pk = :pk', { '#pk': 'pk' })).toEqual([{ action: 'Query', pk: 'T#acme#EVT#1' }]);
    expect(query('pk = :pk AND begins_with(sk, :sk)')).toEqual([{ action: 'Query', pk: 'T#acme#EVT#1' }]);
    expect(query('#s > :sk and :pk = #k', { '#k': 'pk', '#s': 'sk' })).toEqual([
      { action: 'Query', pk: 'T#acme#EVT#1' },
    ]);
    expect(query('(pk = :pk)')).toEqual([{ action: 'Query', pk: 'T#acme#EVT#1' }]);
    // A condition on another attribute names no partition key: a confined grant then refuses it.
    expect(query('#x = :pk', { '#x': 'gsi1pk' })).toEqual([{ action: 'Query' }]);
  });

  it('asks for each item of a transaction or batch on its own: the action of each, on its key', () => {
    const transaction = new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName, Item: key('A#1') } },
        { Update: { TableName, Key: key('A#2'), UpdateExpression: 'SET x = :x' } },
        { Delete: { TableName, Key: key('A#3') } },
        { ConditionCheck: { TableName, Key: key('A#4'), ConditionExpression: 'attribute_exists(pk)' } },
      ],
    });
    expect(requestsOf(transaction)).toEqual([
      { action: 'PutItem', pk: 'A#1' },
      { action: 'UpdateItem', pk: 'A#2' },
      { action: 'DeleteItem', pk: 'A#3' },
      { action: 'ConditionCheckItem', pk: 'A#4' },
    ]);
    expect(requestsOf(new TransactGetCommand({ TransactItems: [{ Get: { TableName, Key: key('A#5') } }] }))).toEqual([
      { action: 'GetItem', pk: 'A#5' },
    ]);
    expect(
      requestsOf(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: [key('A#6'), key('A#7')] } } })),
    ).toEqual([
      { action: 'BatchGetItem', pk: 'A#6' },
      { action: 'BatchGetItem', pk: 'A#7' },
    ]);
  });
});

describe('whether a grant covers a request', () => {
  it('grants a Query of an index only through the index list, not the Query action', () => {
    const request = { action: 'Query', index: 'byTenant' };
    expect(ungranted([{ actions: ['Query'] }], [request])).toEqual([request]);
    expect(ungranted([{ actions: [], indexes: ['byTenant'] }], [request])).toEqual([]);
    expect(ungranted([{ actions: [], indexes: ['byTenant'] }], [{ action: 'Query' }])).toEqual([{ action: 'Query' }]);
  });

  it('confines an access with leading keys to the partition keys of the kinds it names', () => {
    const confined = [{ actions: ['PutItem'] as const, leadingKeys: ['idempotency', 'rateBucket'] as const }];
    expect(ungranted(confined, [{ action: 'PutItem', pk: 'IDEM#t#scope#digest' }])).toEqual([]);
    expect(ungranted(confined, [{ action: 'PutItem', pk: 'RATE#tenant-a' }])).toEqual([]);
    const outside = [
      { action: 'PutItem', pk: 'T#tenant#P#1' },
      { action: 'PutItem', pk: 'T#RATE#tenant' },
      { action: 'PutItem' },
    ];
    expect(ungranted(confined, outside)).toEqual(outside);
  });

  it('confines a Query of the table by its partition key, and never a Query of an index', () => {
    const access = [
      { actions: ['Query'] as const, indexes: ['byLookup'] as const, leadingKeys: ['tenantData'] as const },
    ];
    expect(ungranted(access, [{ action: 'Query', pk: 'T#acme#WHC' }])).toEqual([]);
    expect(ungranted(access, [{ action: 'Query', pk: 'SCREEN#ofac#jane doe' }])).toHaveLength(1);
    // Index partition keys (persons of every tenant by name) are not the table's kinds.
    expect(ungranted(access, [{ action: 'Query', index: 'byLookup' }])).toEqual([]);
  });
});

describe('the checks after each test', () => {
  it('fails a command sent outside any function, saying how to attribute it', () => {
    expect(() =>
      assertWithinGrants([{ sender: undefined, command: 'GetCommand', requests: [{ action: 'GetItem' }] }]),
    ).toThrow(/GetCommand was sent outside a known function: invoke routes with invoke\(\)/);
  });

  it('fails a command its function’s row does not grant, naming the row, the action and the key', () => {
    const getEvent = rowFunction('GetEvent');
    expect(() =>
      assertWithinGrants([
        { sender: getEvent, command: 'DeleteCommand', requests: [{ action: 'DeleteItem', pk: 'T#t#E#1' }] },
      ]),
    ).toThrow(
      'GetEvent sent DeleteCommand, which needs DeleteItem on T#t#E#1: its row in lib/service does not grant it',
    );
  });

  it('fails a key of a kind the row does not name for that action, naming the kind to add to its leadingKeys', () => {
    const worker = rowFunction('IdentificationWorker');
    expect(() =>
      assertWithinGrants([
        { sender: worker, command: 'PutCommand', requests: [{ action: 'PutItem', pk: 'SCREEN#ofac#jane doe' }] },
      ]),
    ).toThrow(
      "IdentificationWorker sent PutCommand, which needs PutItem on SCREEN#ofac#jane doe, a screeningEntry key: its row in lib/service grants PutItem only on tenantData keys; add 'screeningEntry' to the leadingKeys of that access if the code is right",
    );
  });

  it('fails a key of no kind at all, saying where kinds are declared', () => {
    const worker = rowFunction('IdentificationWorker');
    expect(() =>
      assertWithinGrants([{ sender: worker, command: 'GetCommand', requests: [{ action: 'GetItem', pk: 'NEW#1' }] }]),
    ).toThrow(
      'IdentificationWorker sent GetCommand, which needs GetItem on NEW#1, a key of no kind: give its records a prefix in KEY_PREFIX (functions/shared/db/keys.ts) and name that kind in the leadingKeys of its row in lib/service',
    );
  });

  it('fails a table Query whose key condition names no partition key, when its grant is confined', () => {
    const getEvent = rowFunction('GetEvent');
    expect(() =>
      assertWithinGrants([{ sender: getEvent, command: 'QueryCommand', requests: [{ action: 'Query' }] }]),
    ).toThrow('GetEvent sent QueryCommand, which needs Query on a partition key the recorder could not read');
  });

  it('counts the HTTP stack’s share as granted to every route, and as one permission for all of them', () => {
    const getEvent = rowFunction('GetEvent');
    const getPerson = rowFunction('GetPerson');
    if (!getEvent || !getPerson) throw new Error('rows missing');
    const takeToken = { action: 'UpdateItem', pk: 'RATE#tenant-a' };
    expect(ungranted(getEvent.grant, [takeToken])).toEqual([]);
    expect(usesOf(getEvent, takeToken)).toEqual(usesOf(getPerson, takeToken));
    expect(usesOf(getEvent, takeToken)[0]).toMatch(/^shared: UpdateItem on RATE#\*/);
    expect(usesOf(getEvent, { action: 'Query', pk: 'T#t#EVT#1' })).toEqual(['GetEvent: Query on T#*']);
    expect(grantedUses(getEvent)).toContain('GetEvent: Query on T#*');
  });

  it('runs a fixture (no row of lib/service) as no function', async () => {
    expect(rowFunction('NoSuchRow')).toBeUndefined();
    expect(await runAsRow('NoSuchRow', async () => 'ran')).toBe('ran');
  });
});
