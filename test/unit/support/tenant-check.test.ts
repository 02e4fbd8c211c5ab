import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { requestsOf, type TableRequest } from '#shared/db/command-requests';
import { TABLE_SCHEMA } from '#shared/db/schema';
import { actingFor, asRequest, nameRequestTenant, tenantScope } from '#shared/tenant-scope';
import { assertWithinGrants, type RecordedCommand, rowFunction } from '#test/support/table-access-recorder';
import { ownerOfKey, tenantCrossings } from '#test/support/tenant-check';

// The tenant check's own rules (test/support/tenant-check.ts): whose each key is, and when a
// command's key is not the tenant its code acts for.

const row = (id: string) => {
  const fn = rowFunction(id);
  if (!fn) throw new Error(`no row ${id}`);
  return fn;
};
const get = (pk: string): TableRequest[] => [{ action: 'GetItem', pk }];
const sent = (
  id: string,
  requests: TableRequest[],
  scope?: RecordedCommand['scope'],
  command = 'GetCommand',
): RecordedCommand => ({ sender: row(id), command, requests, ...(scope && { scope }) });
const request = (tenant: string) => ({ tenant, of: 'request' as const });
const work = (tenant: string) => ({ tenant, of: 'work' as const });

describe('whose a key is', () => {
  it('reads the tenant right after the prefix of every tenant kind', () => {
    expect(ownerOfKey('T#acme#VA#1', 'table')).toEqual({ tenant: 'acme' });
    expect(ownerOfKey('IDEM#acme#POST /persons#d', 'table')).toEqual({ tenant: 'acme' });
    expect(ownerOfKey('RATE#acme', 'table')).toEqual({ tenant: 'acme' });
    expect(ownerOfKey('PAGE#acme#C#x', 'table')).toEqual({ tenant: 'acme' });
    expect(ownerOfKey('REDELIVER#acme', 'table')).toEqual({ tenant: 'acme' });
    expect(ownerOfKey('TENANT#acme', 'table')).toEqual({ tenant: 'acme' });
  });

  it('gives aliases, screening entries and re-screen runs to no tenant', () => {
    expect(ownerOfKey('CLIENT#client-1', 'table')).toBe('none');
    expect(ownerOfKey('SCREEN#sanctions#LISTING#1', 'table')).toBe('none');
    expect(ownerOfKey('SCREENRUN#daily#1', 'table')).toBe('none');
    expect(ownerOfKey('SCREEN#sanctions#LISTINGS', 'index')).toBe('none');
  });

  it('takes an index partition of no kind for one spanning tenants, and a table key of no kind for the grant check’s', () => {
    expect(ownerOfKey('T#acme#P#verified#0', 'index')).toEqual({ tenant: 'acme' });
    expect(ownerOfKey('PSCREEN#3', 'index')).toBe('many');
    expect(ownerOfKey('STATEMENT_CODE_SENT#0', 'index')).toBe('many');
    expect(ownerOfKey('NEW#1', 'table')).toBeUndefined();
  });

  it('reads the partition an index Query names from its key condition', () => {
    const query = new QueryCommand({
      TableName: 'table',
      IndexName: TABLE_SCHEMA.indexes.byLookup.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': TABLE_SCHEMA.indexes.byLookup.partitionKey },
      ExpressionAttributeValues: { ':pk': 'PSCREEN#2' },
    });
    expect(requestsOf(query)).toEqual([{ action: 'Query', index: 'byLookup', partition: 'PSCREEN#2' }]);
  });
});

describe('the tenant a command acts for', () => {
  it('refuses a key of another tenant than the request’s, naming both and the way out', () => {
    const { problems } = tenantCrossings([sent('GetPerson', get('T#bob#P#1'), request('acme'))]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^GetPerson sent GetCommand on T#bob#P#1, a key of tenant bob, while acting for acme: build the key/,
      ),
    ]);
  });

  it('refuses a tenant’s key sent acting for no tenant by a function that declares no crossing', () => {
    const { problems } = tenantCrossings([sent('VerificationWorker', get('T#acme#VA#1'))]);
    expect(problems).toEqual([
      expect.stringMatching(/acting for no tenant: name the tenant of the work .* crossTenant/),
    ]);
  });

  it('refuses an index partition spanning tenants to a function acting for one', () => {
    const { problems } = tenantCrossings([
      sent(
        'ListPersons',
        [{ action: 'Query', index: 'byLookup', partition: 'PSCREEN#0' }],
        request('acme'),
        'QueryCommand',
      ),
    ]);
    expect(problems).toEqual([expect.stringContaining('index byLookup partition PSCREEN#0, which spans tenants')]);
  });

  it('refuses an item filed under another tenant’s list partition, by a Put or an Update', () => {
    const filed = (action: string): TableRequest[] => [
      { action, pk: 'T#acme#P#1', filedUnder: ['T#bob#P#verified#0', 'PSCREEN#1'] },
    ];
    const { problems } = tenantCrossings([
      sent('CreatePerson', filed('PutItem'), request('acme'), 'PutCommand'),
      sent('UpdatePerson', filed('UpdateItem'), request('acme'), 'UpdateCommand'),
    ]);
    expect(problems).toEqual([
      expect.stringContaining(
        'CreatePerson sent PutCommand on T#acme#P#1, filing it under the index partition T#bob#P#verified#0 of tenant bob, while acting for acme',
      ),
      expect.stringContaining(
        'UpdatePerson sent UpdateCommand on T#acme#P#1, filing it under the index partition T#bob#P#verified#0 of tenant bob',
      ),
    ]);
  });

  it('reads the index partitions a Put’s item and an Update’s SET clauses file it under', () => {
    const byTenant = TABLE_SCHEMA.indexes.byTenant.partitionKey;
    const byLookup = TABLE_SCHEMA.indexes.byLookup.partitionKey;
    expect(
      requestsOf(
        new PutCommand({
          TableName: 'table',
          Item: { pk: 'T#a#P#1', sk: 'P', [byTenant]: 'T#a#P#created#0', [byLookup]: 'PSCREEN#2' },
        }),
      ),
    ).toEqual([{ action: 'PutItem', pk: 'T#a#P#1', filedUnder: ['T#a#P#created#0', 'PSCREEN#2'] }]);
    expect(
      requestsOf(
        new UpdateCommand({
          TableName: 'table',
          Key: { pk: 'T#a#P#1', sk: 'P' },
          UpdateExpression: 'SET #status = :status, #g = :g, version = :v',
          ExpressionAttributeNames: { '#status': 'status', '#g': byTenant },
          ExpressionAttributeValues: { ':status': 'verified', ':g': 'T#a#P#verified#0', ':v': 2 },
        }),
      ),
    ).toEqual([{ action: 'UpdateItem', pk: 'T#a#P#1', filedUnder: ['T#a#P#verified#0'] }]);
  });

  it('passes the tenant’s own keys and keys of no tenant', () => {
    const { problems, crossed } = tenantCrossings([
      sent(
        'GetPerson',
        [...get('T#acme#P#1'), ...get('RATE#acme'), ...get('CLIENT#c'), ...get('TENANT#acme')],
        request('acme'),
      ),
      sent('IdentificationWorker', [...get('T#acme#P#1'), ...get('SCREEN#VERSION')], work('acme')),
    ]);
    expect({ problems, crossed }).toEqual({ problems: [], crossed: [] });
  });

  it('lets a declared function cross outside the work it names a tenant for, and notes that it did', () => {
    const { problems, crossed } = tenantCrossings([
      sent(
        'StatementCodeExpiry',
        [{ action: 'Query', index: 'byDueTime', partition: 'STATEMENT_CODE_SENT#0' }],
        undefined,
        'QueryCommand',
      ),
      sent('ListScreeningHits', get('T#acme#P#1'), request('operators')),
    ]);
    expect(problems).toEqual([]);
    expect(crossed).toEqual(['StatementCodeExpiry: crosses tenants', 'ListScreeningHits: crosses tenants']);
  });

  it('holds a declared function to the tenant of a piece of work it opened', () => {
    const { problems } = tenantCrossings([sent('StatementCodeExpiry', get('T#bob#VA#1'), work('acme'))]);
    expect(problems).toEqual([expect.stringContaining('while acting for acme')]);
  });

  it('fails the grant check’s assertion with the tenant problems, in a section of their own', () => {
    expect(() =>
      assertWithinGrants([{ ...sent('GetPerson', get('T#bob#P#1'), request('acme')), requests: get('T#bob#P#1') }]),
    ).toThrow(/another tenant's keys than the one the code acts for[\s\S]*GetPerson sent GetCommand on T#bob#P#1/);
  });
});

describe('the acting tenant (#shared/tenant-scope)', () => {
  it('is named once for the rest of a request, and a piece of work inside acts for its own', async () => {
    await asRequest(async () => {
      expect(tenantScope()).toEqual({ tenant: undefined, of: 'request' });
      nameRequestTenant('acme');
      await Promise.resolve();
      expect(tenantScope()).toEqual({ tenant: 'acme', of: 'request' });
      await actingFor('bob', async () => expect(tenantScope()).toEqual({ tenant: 'bob', of: 'work' }));
      expect(() => nameRequestTenant('bob')).toThrow('a request acts for one tenant');
    });
    expect(tenantScope()).toBeUndefined();
  });
});
