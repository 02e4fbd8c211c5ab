import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { ENV, withOwnVariables } from '#shared/config';
import { operationOf } from '#shared/db/command-requests';
import { TenantCredentials } from '#shared/db/tenant-access/credentials';
import { TenantScopedDocumentClient } from '#shared/db/tenant-access/document-client';
import { actingFor } from '#shared/tenant-scope';

// Which credentials each command goes under (functions/shared/db/tenant-access/): the
// tenant's, for a command about that tenant's records while the code acts for it in a
// function with a tenant role; the function's own otherwise. Each sent command's client is
// asked which credentials it signs with.

const ROLE = 'arn:aws:iam::123456789012:role/GetPersonTenant';
const TableName = 'table';
const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());

function scopedClient() {
  const assumed: string[] = [];
  const credentials = new TenantCredentials(async (_role, tenant) => {
    assumed.push(tenant);
    return { accessKeyId: `tenant-${tenant}`, secretAccessKey: 's', expiration: new Date(Date.now() + 3_600_000) };
  });
  const own = new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'own', secretAccessKey: 's' } });
  return { client: new TenantScopedDocumentClient(own, { credentials }), assumed };
}

/** The access key id each command's client signed with, in order. */
async function signers(send: () => Promise<unknown>): Promise<string[]> {
  const seen: Promise<string>[] = [];
  ddb.callsFake((_input, getClient) => {
    const provider = getClient().config.credentials as () => Promise<{ accessKeyId: string }>;
    seen.push(provider().then((c) => c.accessKeyId));
    return {};
  });
  await send();
  return Promise.all(seen);
}

const get = (pk: string) => new GetCommand({ TableName, Key: { pk, sk: 'X' } });
const indexQuery = (partition: string) =>
  new QueryCommand({
    TableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p',
    ExpressionAttributeValues: { ':p': partition },
  });

describe('TenantScopedDocumentClient', () => {
  it("sends a tenant's records under that tenant's credentials while the code acts for it", async () => {
    const { client, assumed } = scopedClient();
    const keys = await signers(() =>
      withOwnVariables({ [ENV.tenantRoleArn]: ROLE }, () =>
        actingFor('acme', async () => {
          await client.send(get('T#acme#P#1'));
          await client.send(get('RATE#acme'));
          await client.send(new PutCommand({ TableName, Item: { pk: 'IDEM#acme#x', sk: 'IDEM' } }));
          await client.send(indexQuery('T#acme#PERSONS'));
        }),
      ),
    );
    expect(keys).toEqual(['tenant-acme', 'tenant-acme', 'tenant-acme', 'tenant-acme']);
    // One assumption for the tenant, however many commands.
    expect(assumed).toEqual(['acme']);
  });

  it('sends records of no tenant under its own role, also while acting for a tenant', async () => {
    const { client } = scopedClient();
    const keys = await signers(() =>
      withOwnVariables({ [ENV.tenantRoleArn]: ROLE }, () =>
        actingFor('acme', async () => {
          await client.send(get('CLIENT#0oa1'));
          await client.send(get('SCREEN#sanctions#VERSION'));
          await client.send(indexQuery('SCREEN#sanctions#LISTINGS'));
        }),
      ),
    );
    expect(keys).toEqual(['own', 'own', 'own']);
  });

  it('sends everything under its own role where the code acts for no tenant, or the function has no tenant role', async () => {
    const { client, assumed } = scopedClient();
    const keys = await signers(async () => {
      await withOwnVariables({ [ENV.tenantRoleArn]: ROLE }, () => client.send(get('T#acme#P#1')));
      await actingFor('acme', () => client.send(get('T#acme#P#1')));
    });
    expect(keys).toEqual(['own', 'own']);
    expect(assumed).toEqual([]);
  });

  it("sends a key built from another tenant under the acting tenant's credentials, which IAM then refuses", async () => {
    const { client } = scopedClient();
    const keys = await signers(() =>
      withOwnVariables({ [ENV.tenantRoleArn]: ROLE }, () =>
        actingFor('acme', async () => {
          await client.send(get('T#globex#P#1'));
          // A transaction with a tenant's item and another's goes under the tenant's too.
          await client.send(
            new TransactWriteCommand({
              TransactItems: [
                { Put: { TableName, Item: { pk: 'CLIENT#x', sk: 'ALIAS' } } },
                { Put: { TableName, Item: { pk: 'T#acme#P#1', sk: 'P' } } },
              ],
            }),
          );
        }),
      ),
    );
    expect(keys).toEqual(['tenant-acme', 'tenant-acme']);
  });

  it('keeps each tenant apart within one container', async () => {
    const { client, assumed } = scopedClient();
    const keys = await signers(() =>
      withOwnVariables({ [ENV.tenantRoleArn]: ROLE }, async () => {
        await actingFor('acme', () => client.send(get('T#acme#P#1')));
        await actingFor('globex', () => client.send(get('T#globex#P#1')));
        await actingFor('acme', () => client.send(get('T#acme#P#2')));
      }),
    );
    expect(keys).toEqual(['tenant-acme', 'tenant-globex', 'tenant-acme']);
    expect(assumed).toEqual(['acme', 'globex']);
  });
});

describe('everyClient', () => {
  it('reaches the own client and every tenant client, those made later too', async () => {
    const { client } = scopedClient();
    const seen: string[] = [];
    ddb.resolves({});
    await withOwnVariables({ [ENV.tenantRoleArn]: ROLE }, () =>
      actingFor('acme', () => client.send(get('T#acme#P#1'))),
    );
    client.everyClient((each) => seen.push(each === client ? 'own' : 'tenant'));
    await withOwnVariables({ [ENV.tenantRoleArn]: ROLE }, () =>
      actingFor('globex', () => client.send(get('T#globex#P#1'))),
    );
    expect(seen).toEqual(['own', 'tenant', 'tenant']);
  });
});

describe('operationOf', () => {
  it('names the operation from the command, not its class name, which a minified bundle renames', () => {
    class a extends GetCommand {}
    class b extends TransactWriteCommand {}
    expect(operationOf(new a({ TableName, Key: { pk: 'x' } }))).toBe('GetItem');
    expect(operationOf(new b({ TransactItems: [] }))).toBe('TransactWriteItems');
  });
});
