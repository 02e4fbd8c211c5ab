import { describe, expect, it } from 'vitest';
import { iamRequestsOf } from '#lib/local/iam/dynamodb-requests';

const arn = (table: string) => `arn:aws:dynamodb:us-east-1:123456789012:table/${table}`;
const T = arn('t');
const key = (pk: string) => ({ pk: { S: pk }, sk: { S: 'x' } });
const requests = (operation: string, body: Record<string, unknown>) => iamRequestsOf(operation, body, arn);

describe('the IAM requests of a DynamoDB call on the wire', () => {
  it('names an item call’s action on the table with the item key’s partition', () => {
    expect(requests('GetItem', { TableName: 't', Key: key('T#acme#1') })).toEqual([
      { action: 'dynamodb:GetItem', resource: T, leadingKeys: ['T#acme#1'] },
    ]);
    expect(
      requests('PutItem', { TableName: 't', Item: { ...key('RATE#acme'), n: { N: '12345678901234567890' } } }),
    ).toEqual([{ action: 'dynamodb:PutItem', resource: T, leadingKeys: ['RATE#acme'] }]);
    expect(requests('UpdateItem', { TableName: 't', Key: key('T#acme#2'), UpdateExpression: 'SET a = :a' })).toEqual([
      { action: 'dynamodb:UpdateItem', resource: T, leadingKeys: ['T#acme#2'] },
    ]);
    expect(requests('DeleteItem', { TableName: 't', Key: key('T#acme#3') })[0]?.leadingKeys).toEqual(['T#acme#3']);
  });

  it('reads a table Query’s partition from its key condition, and an index Query’s on the index’s ARN', () => {
    const values = { ':p': { S: 'T#acme#VA' }, ':s': { S: '2026' } };
    expect(
      requests('Query', {
        TableName: 't',
        KeyConditionExpression: '#k = :p AND sk > :s',
        ExpressionAttributeNames: { '#k': 'pk' },
        ExpressionAttributeValues: values,
      }),
    ).toEqual([{ action: 'dynamodb:Query', resource: T, leadingKeys: ['T#acme#VA'] }]);
    expect(
      requests('Query', {
        TableName: 't',
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :p',
        ExpressionAttributeValues: values,
      }),
    ).toEqual([{ action: 'dynamodb:Query', resource: `${T}/index/gsi1`, leadingKeys: ['T#acme#VA'] }]);
    // No partition in the condition: no key, which a confined grant refuses.
    expect(
      requests('Query', { TableName: 't', KeyConditionExpression: 'sk > :s', ExpressionAttributeValues: values }),
    ).toEqual([{ action: 'dynamodb:Query', resource: T, leadingKeys: [] }]);
  });

  it('asks BatchGetItem once per table with every key, and a transaction item by item on each item’s table', () => {
    expect(
      requests('BatchGetItem', {
        RequestItems: { t: { Keys: [key('T#a#1'), key('T#b#1')] }, u: { Keys: [key('T#a#2')] } },
      }),
    ).toEqual([
      { action: 'dynamodb:BatchGetItem', resource: T, leadingKeys: ['T#a#1', 'T#b#1'] },
      { action: 'dynamodb:BatchGetItem', resource: arn('u'), leadingKeys: ['T#a#2'] },
    ]);
    expect(
      requests('TransactWriteItems', {
        TransactItems: [
          { Put: { TableName: 't', Item: key('T#a#1') } },
          { Update: { TableName: 'u', Key: key('T#a#2'), UpdateExpression: 'SET a = :a' } },
          { Delete: { TableName: 't', Key: key('T#a#3') } },
          { ConditionCheck: { TableName: 't', Key: key('RATE#a'), ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }).map(({ action, resource, leadingKeys }) => `${action} ${resource.split('/')[1]} ${leadingKeys}`),
    ).toEqual([
      'dynamodb:PutItem t T#a#1',
      'dynamodb:UpdateItem u T#a#2',
      'dynamodb:DeleteItem t T#a#3',
      'dynamodb:ConditionCheckItem t RATE#a',
    ]);
    expect(requests('TransactGetItems', { TransactItems: [{ Get: { TableName: 't', Key: key('T#a#1') } }] })).toEqual([
      { action: 'dynamodb:GetItem', resource: T, leadingKeys: ['T#a#1'] },
    ]);
  });

  it('names any other operation’s action with no key: a Scan, a batch write, a call on no table', () => {
    expect(requests('Scan', { TableName: 't' })).toEqual([{ action: 'dynamodb:Scan', resource: T, leadingKeys: [] }]);
    expect(requests('BatchWriteItem', { RequestItems: { t: [{ PutRequest: { Item: key('T#a#1') } }] } })).toEqual([
      { action: 'dynamodb:BatchWriteItem', resource: T, leadingKeys: [] },
    ]);
    expect(requests('ListTables', {})).toEqual([{ action: 'dynamodb:ListTables', resource: '*', leadingKeys: [] }]);
  });

  it('throws on a body that is not the call’s, for the proxy to refuse', () => {
    expect(() => requests('TransactWriteItems', {})).toThrow();
    expect(() => requests('GetItem', { TableName: 't', Key: { pk: { NOPE: 'x' } } })).toThrow();
  });
});
