import {
  BatchGetItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { AssumeRoleCommand, type AssumeRoleCommandInput, STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_REGION, localTableArn } from '#lib/local/aws-account';
import { type DecidedCall, type DynamoDbIamProxy, startDynamoDbIamProxy } from '#lib/local/iam/dynamodb-iam-proxy';
import { type StsStandIn, startStsStandIn } from '#lib/local/iam/sts-stand-in';
import { tenantRoleStatements } from '#lib/service/tenant-access';
import { TABLE_SCHEMA } from '#shared/db/schema';
import { rawDynamoDbClient, rejection } from '#test/support/raw-dynamodb';
import { createTestTable } from '../harness';

/**
 * The stand-ins for STS and IAM (lib/local/iam/) met by the SDK's real clients, as the
 * handlers meet them: STS's AssumeRole answers a tenant's session only as the stack's trust
 * policy would, and the proxy in front of DynamoDB Local holds each call signed with that
 * session to its role's policy, answering what DynamoDB answers when IAM refuses.
 */
const ROLE = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/local-tenant/Probe`;
let tableName: string;
let table: string;
let sts: StsStandIn;
let proxy: DynamoDbIamProxy;
let stsClient: STSClient;
let direct: DynamoDBClient;
let clock = Date.now();
const decided: DecidedCall[] = [];
const clients: DynamoDBClient[] = [];

beforeAll(async () => {
  const created = await createTestTable();
  tableName = created.tableName;
  table = localTableArn(tableName);
  sts = await startStsStandIn({ now: () => clock });
  sts.register(
    ROLE,
    tenantRoleStatements(
      [
        {
          actions: ['GetItem', 'BatchGetItem', 'PutItem', 'Query'],
          leadingKeys: ['tenantData'],
          indexes: ['byTenant'],
        },
        { actions: ['UpdateItem'], leadingKeys: ['rateBucket'] },
      ],
      { table, index: (name) => `${table}/index/${TABLE_SCHEMA.indexes[name].name}` },
    ),
  );
  proxy = await startDynamoDbIamProxy({
    upstream: created.dynamoEndpoint,
    session: (keyId) => sts.session(keyId),
    tableArn: localTableArn,
    now: () => clock,
    onDecided: (call) => decided.push(call),
  });
  stsClient = new STSClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: sts.endpoint });
  direct = rawDynamoDbClient(created.dynamoEndpoint);
});
afterAll(async () => {
  for (const client of [stsClient, direct, ...clients]) client.destroy();
  await proxy.stop();
  await sts.stop();
});

const assume = (input: Partial<AssumeRoleCommandInput> = {}) =>
  stsClient.send(
    new AssumeRoleCommand({
      RoleArn: ROLE,
      RoleSessionName: 'tenant-acme',
      DurationSeconds: 3600,
      Tags: [{ Key: 'tenant', Value: 'acme' }],
      ...input,
    }),
  );

/** A DynamoDB client through the proxy, signing with a session of `tenant` (or with the functions' own key). */
async function clientOf(tenant: string | 'own'): Promise<DynamoDBClient> {
  const credentials =
    tenant === 'own'
      ? LOCAL_CREDENTIALS
      : await assume({ RoleSessionName: `tenant-${tenant}`, Tags: [{ Key: 'tenant', Value: tenant }] }).then(
          ({ Credentials: c }) => ({
            accessKeyId: c!.AccessKeyId!,
            secretAccessKey: c!.SecretAccessKey!,
            sessionToken: c!.SessionToken!,
          }),
        );
  const client = rawDynamoDbClient(proxy.endpoint, credentials);
  clients.push(client);
  return client;
}

const key = (pk: string) => ({ pk: { S: pk }, sk: { S: 'item' } });
const put = (client: DynamoDBClient, pk: string, extra = {}) =>
  client.send(new PutItemCommand({ TableName: tableName, Item: { ...key(pk), ...extra } }));
const get = (client: DynamoDBClient, pk: string) =>
  client.send(new GetItemCommand({ TableName: tableName, Key: key(pk) }));
const stored = async (pk: string) => (await get(direct, pk)).Item;
const denial = (action: string, resource = table) =>
  `User: arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/Probe/tenant-acme is not authorized to perform: dynamodb:${action} on resource: ${resource} because no identity-based policy allows the dynamodb:${action} action`;

describe('the STS stand-in', () => {
  it('issues a session of a registered role tagged with one tenant, as STS answers it, and keeps it', async () => {
    const { Credentials, AssumedRoleUser } = await assume();
    expect(Credentials?.AccessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/);
    expect(Credentials?.SecretAccessKey).toBeTruthy();
    expect(Credentials?.SessionToken).toBeTruthy();
    expect(Credentials?.Expiration?.getTime()).toBe(Math.floor(clock / 1000) * 1000 + 3600_000);
    expect(AssumedRoleUser?.Arn).toBe(`arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/Probe/tenant-acme`);
    expect(AssumedRoleUser?.AssumedRoleId).toMatch(/^AROA[A-Z2-7]{17}:tenant-acme$/);
    expect(sts.session(Credentials!.AccessKeyId!)).toMatchObject({
      roleArn: ROLE,
      roleName: 'Probe',
      tags: { tenant: 'acme' },
      expiration: Credentials?.Expiration,
    });
  });

  it.each([
    [
      'a role it does not know',
      { RoleArn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/local-tenant/Other` },
      'sts:AssumeRole',
    ],
    ['a session without the tenant tag', { Tags: [] }, 'sts:AssumeRole'],
    ['an empty tenant tag', { Tags: [{ Key: 'tenant', Value: '' }] }, 'sts:AssumeRole'],
    [
      'another tag beside the tenant',
      {
        Tags: [
          { Key: 'tenant', Value: 'acme' },
          { Key: 'team', Value: 'x' },
        ],
      },
      'sts:TagSession',
    ],
    ['a tag other than tenant', { Tags: [{ Key: 'Tenant', Value: 'acme' }] }, 'sts:TagSession'],
  ])('refuses %s as STS does: AccessDenied, 403, a Sender fault', async (_, input, action) => {
    const error = await rejection(assume(input));
    expect(error.name).toBe('AccessDenied');
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.$fault).toBe('client');
    expect(error.message).toContain(`is not authorized to perform: ${action} on resource: `);
  });

  it('refuses a session longer than role chaining’s hour, as STS does', async () => {
    const error = await rejection(assume({ DurationSeconds: 7200 }));
    expect(error.name).toBe('ValidationError');
    expect(error.message).toMatch(/1 hour session limit for roles assumed by role chaining/);
  });
});

describe('the IAM proxy in front of DynamoDB Local', () => {
  it('lets acme’s session put and get acme’s item, and refuses globex’s with DynamoDB’s AccessDeniedException, writing nothing', async () => {
    const acme = await clientOf('acme');
    await put(acme, 'T#acme#VA#1');
    expect((await get(acme, 'T#acme#VA#1')).Item).toEqual(key('T#acme#VA#1'));

    const refused = await rejection(put(acme, 'T#globex#VA#1'));
    expect(refused.name).toBe('AccessDeniedException');
    expect(refused.message).toBe(denial('PutItem'));
    expect(refused.$metadata).toMatchObject({ httpStatusCode: 400, attempts: 1 });
    expect(await stored('T#globex#VA#1')).toBeUndefined();
    expect((await rejection(get(acme, 'T#globex#VA#1'))).name).toBe('AccessDeniedException');
    // What the proxy tells of a refusal: the action, the resource and the partition key.
    expect(decided.at(-1)).toMatchObject({
      refused: {
        decision: 'implicitly-denied',
        request: { action: 'dynamodb:GetItem', resource: table, leadingKeys: ['T#globex#VA#1'] },
      },
    });
  });

  it('reads a Query’s partition from its key condition, behind an alias too, and an index Query on the index’s ARN', async () => {
    const acme = await clientOf('acme');
    const query = (partition: string, index?: 'byTenant' | 'byLookup') =>
      acme.send(
        new QueryCommand({
          TableName: tableName,
          ...(index && { IndexName: TABLE_SCHEMA.indexes[index].name }),
          KeyConditionExpression: '#p = :p',
          ExpressionAttributeNames: { '#p': index ? TABLE_SCHEMA.indexes[index].partitionKey : 'pk' },
          ExpressionAttributeValues: { ':p': { S: partition } },
        }),
      );
    await put(acme, 'T#acme#VA#2', { gsi1pk: { S: 'T#acme#VA' }, gsi1sk: { S: '1' } });
    expect((await query('T#acme#VA#2')).Count).toBe(1);
    expect((await query('T#acme#VA', 'byTenant')).Count).toBe(1);
    expect((await rejection(query('T#globex#VA#2'))).message).toBe(denial('Query'));
    expect((await rejection(query('T#globex#VA', 'byTenant'))).message).toBe(denial('Query', `${table}/index/gsi1`));
    // An index the role does not name, whatever the partition.
    expect((await rejection(query('T#acme#VA', 'byLookup'))).message).toBe(denial('Query', `${table}/index/gsi2`));
  });

  it('refuses a whole transaction or batch for one foreign key among them, and writes none of it', async () => {
    const acme = await clientOf('acme');
    const transaction = acme.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: key('T#acme#VA#3') } },
          { Put: { TableName: tableName, Item: key('T#globex#VA#3') } },
        ],
      }),
    );
    expect((await rejection(transaction)).message).toBe(denial('PutItem'));
    expect(await stored('T#acme#VA#3')).toBeUndefined();

    const batch = (...pks: string[]) =>
      acme.send(new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: pks.map(key) } } }));
    expect((await batch('T#acme#VA#1')).Responses?.[tableName]).toHaveLength(1);
    expect((await rejection(batch('T#acme#VA#1', 'T#globex#VA#1'))).message).toBe(denial('BatchGetItem'));
  });

  it('answers ExpiredTokenException once the session has lapsed', async () => {
    const acme = await clientOf('acme');
    await put(acme, 'T#acme#VA#4');
    clock += 3600_000;
    try {
      const error = await rejection(get(acme, 'T#acme#VA#4'));
      expect(error.name).toBe('ExpiredTokenException');
      expect(error.$metadata.httpStatusCode).toBe(400);
    } finally {
      clock -= 3600_000;
    }
  });

  it('passes calls signed with any other key untouched: the functions’ own role is not a tenant’s', async () => {
    const own = await clientOf('own');
    const before = decided.length;
    await put(own, 'T#globex#VA#5');
    expect((await get(own, 'T#globex#VA#5')).Item).toBeDefined();
    expect(decided.length).toBe(before);
  });

  it('refuses a temporary key it never issued, as DynamoDB refuses an unknown token', async () => {
    const forged = rawDynamoDbClient(proxy.endpoint, {
      accessKeyId: 'ASIAFORGEDFORGED0000',
      secretAccessKey: 'x',
      sessionToken: 'y',
    });
    clients.push(forged);
    expect((await rejection(get(forged, 'T#acme#VA#1'))).name).toBe('UnrecognizedClientException');
  });
});
