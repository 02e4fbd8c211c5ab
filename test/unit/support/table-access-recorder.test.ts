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
import { TABLE_SCHEMA } from '#shared/db/schema';
import {
  assertWithinGrants,
  grantedUses,
  requestsOf,
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

  it('names a Query of the table as Query and a Query of an index by the index’s name in TABLE_SCHEMA', () => {
    expect(requestsOf(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :p' }))).toEqual([
      { action: 'Query' },
    ]);
    const byTenant = TABLE_SCHEMA.indexes.byTenant.name;
    expect(requestsOf(new QueryCommand({ TableName, IndexName: byTenant }))).toEqual([
      { action: 'Query', index: 'byTenant' },
    ]);
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

  it('confines an access with leading keys to the partition keys its patterns match', () => {
    const confined = [{ actions: ['PutItem'] as const, leadingKeys: ['IDEM#*', 'RATE#tenant-?'] }];
    expect(ungranted(confined, [{ action: 'PutItem', pk: 'IDEM#t#scope#digest' }])).toEqual([]);
    expect(ungranted(confined, [{ action: 'PutItem', pk: 'RATE#tenant-a' }])).toEqual([]);
    const outside = [
      { action: 'PutItem', pk: 'T#tenant#P#1' },
      { action: 'PutItem', pk: 'RATE#tenant-ab' },
      { action: 'PutItem' },
    ];
    expect(ungranted(confined, outside)).toEqual(outside);
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

  it('counts the HTTP stack’s share as granted to every route, and as one permission for all of them', () => {
    const getEvent = rowFunction('GetEvent');
    const getPerson = rowFunction('GetPerson');
    if (!getEvent || !getPerson) throw new Error('rows missing');
    const takeToken = { action: 'UpdateItem', pk: 'RATE#tenant-a' };
    expect(ungranted(getEvent.grant, [takeToken])).toEqual([]);
    expect(usesOf(getEvent, takeToken)).toEqual(usesOf(getPerson, takeToken));
    expect(usesOf(getEvent, takeToken)[0]).toMatch(/^shared: UpdateItem on RATE#\*/);
    expect(usesOf(getEvent, { action: 'Query' })).toEqual(['GetEvent: Query']);
    expect(grantedUses(getEvent)).toContain('GetEvent: Query');
  });

  it('runs a fixture (no row of lib/service) as no function', async () => {
    expect(rowFunction('NoSuchRow')).toBeUndefined();
    expect(await runAsRow('NoSuchRow', async () => 'ran')).toBe('ran');
  });
});
