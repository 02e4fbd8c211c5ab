import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';
import type { LocalRuntime } from '#lib/local/runtime';
import { ENTITY } from '#shared/db/entities';
import { api, startTestRuntime } from '../harness';
import { accountBody } from '../verify-accounts/support';
import { type RecordedWebhook, recordWebhooks } from '../webhooks/support';
import { scanTable } from './support';

/**
 * A table dump (a Scan, the stream's images, a backup) must hold no account number a
 * reader without the field key could read (issue 18): the account item, every event that
 * carries an account (`verify_account_updated`, a test event's free-form data) and every
 * idempotency record replaying an account keep it sealed under the field key. Partners
 * still get every number back in the clear: GET, the list's filter, the event log and the
 * webhook deliveries.
 */
let runtime: LocalRuntime;
let alice: ReturnType<typeof api>;
let webhooks: RecordedWebhook[];

const ROUTING = '021000021';
const ACCOUNTS = { status: '73120455012', owner: '73120455029', business: '73120455036', control: '73120455043' };
/** Sent in a test event's free-form data, hyphenated and nested, as a partner may send one. */
const TEST_EVENT_NUMBERS = { top: '73120455050', nested: '7312-0455-067' };
/** Every form a reader would look for: the number and its digits without hyphens. */
const FORMS = [
  ...new Set(
    [...Object.values(ACCOUNTS), ...Object.values(TEST_EVENT_NUMBERS)].flatMap((n) => [n, n.replaceAll('-', '')]),
  ),
];
const ids: Record<string, string> = {};
let testEventId: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  alice = api(runtime, await runtime.mintToken('tenant-fields'));
  webhooks = await recordWebhooks(alice);
  const create = async (name: keyof typeof ACCOUNTS, body: Record<string, unknown>) => {
    const response = await alice.post(
      '/verify/accounts',
      accountBody({ account_number: ACCOUNTS[name], routing_number: ROUTING, ...body }),
      // An idempotency record keeps the answer, account number included, for 24 h.
      { headers: { 'idempotency-key': `fields-${name}` } },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    ids[name] = response.body.account.id;
  };
  await create('status', { type: 'status' });
  await create('owner', {
    type: 'status_ownership',
    person: { first_name: 'Jane', last_name: 'Doe', ssn: '478120953' },
  });
  await create('business', {
    type: 'status_ownership',
    business: { business_name: 'Doe Ltd', tax_id: '839201746' },
  });
  await create('control', { type: 'control' });
  const invoked = await alice.post('/webhooks/invoke', {
    event_type: 'verify_account_updated',
    data: {
      id: 'test-account',
      account_number: TEST_EVENT_NUMBERS.top,
      previous: [{ note: 'moved', account_number: TEST_EVENT_NUMBERS.nested }],
    },
  });
  expect(invoked.status).toBe(201);
  await runtime.settle();
  const events = await alice.get('/events?test=true&event_type=verify_account_updated&size=100');
  expect(events.status).toBe(200);
  testEventId = events.body.events.find(
    (event: { event_data: { account: { id: string } } }) => event.event_data.account.id === 'test-account',
  )?.event_id;
}, 60_000);

afterAll(() => runtime?.stop());

/** The forms found in a text, if any. */
const found = (text: string) => FORMS.filter((form) => text.includes(form));

/** Every record of the table's stream so far, from the start of every shard. */
async function streamRecords(): Promise<StreamRecord[]> {
  const options = { endpoint: runtime.dynamoEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  const dynamo = new DynamoDBClient(options);
  const streams = new DynamoDBStreamsClient(options);
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: runtime.tableName }));
    const streamArn = Table?.LatestStreamArn as string;
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const records: StreamRecord[] = [];
    for (const shard of StreamDescription?.Shards ?? []) {
      let { ShardIterator: iterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      // An open shard answers empty pages with a next iterator forever: stop at the first empty one.
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        records.push(...(page.Records ?? []));
        iterator = page.Records?.length ? page.NextShardIterator : undefined;
      }
    }
    return records;
  } finally {
    dynamo.destroy();
    streams.destroy();
  }
}

describe('account numbers in a table dump', () => {
  it('stores what the test looks at: the accounts, their events, the test event and the idempotency records', async () => {
    const entities = (await scanTable(runtime)).map((item) => item.entity);
    expect(entities.filter((e) => e === ENTITY.verifyAccount)).toHaveLength(4);
    expect(entities.filter((e) => e === ENTITY.event).length).toBeGreaterThanOrEqual(5);
    expect(entities.filter((e) => e === ENTITY.idempotency)).toHaveLength(4);
    expect(testEventId).toBeDefined();
  });

  it('holds no account number, hyphenated or not, in any attribute of any item at any depth', async () => {
    const leaks = (await scanTable(runtime)).flatMap((item) =>
      found(JSON.stringify(item)).map((form) => `${item.entity} ${String(item.pk)}: ${form}`),
    );
    expect(leaks).toEqual([]);
  });

  it('holds no account number in any new or old image of the table’s stream', async () => {
    const records = await streamRecords();
    expect(records.length).toBeGreaterThan(10);
    const leaks = records.flatMap((record) =>
      (['NewImage', 'OldImage'] as const).flatMap((image) =>
        found(JSON.stringify(record.dynamodb?.[image] ?? {})).map((form) => `${record.eventName} ${image}: ${form}`),
      ),
    );
    expect(leaks).toEqual([]);
  });
});

describe('account numbers as partners get them', () => {
  it('answers each account with its number in the clear: GET, and the list filtered by the number', async () => {
    for (const [name, number] of Object.entries(ACCOUNTS)) {
      const one = await alice.get(`/verify/accounts/${ids[name]}`);
      expect(one.body.account.account_number).toBe(number);
      const list = await alice.get(`/verify/accounts?account_number=${number}`);
      expect(list.body.accounts.map((a: { id: string }) => a.id)).toEqual([ids[name]]);
      expect(list.body.accounts[0].account_number).toBe(number);
    }
  });

  it('replays an idempotent create with the number in the clear', async () => {
    const again = await alice.post(
      '/verify/accounts',
      accountBody({ account_number: ACCOUNTS.status, routing_number: ROUTING, type: 'status' }),
      { headers: { 'idempotency-key': 'fields-status' } },
    );
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.account.account_number).toBe(ACCOUNTS.status);
  });

  it('carries the numbers in the clear in the event log and the test event, at every depth', async () => {
    const event = await alice.get(`/events/${testEventId}`);
    expect(event.body.event.event_data.account).toEqual({
      id: 'test-account',
      account_number: TEST_EVENT_NUMBERS.top,
      previous: [{ note: 'moved', account_number: TEST_EVENT_NUMBERS.nested }],
    });
    const real = await alice.get('/events?event_type=verify_account_updated&size=100');
    const test = await alice.get('/events?test=true&event_type=verify_account_updated&size=100');
    const numbers = [...real.body.events, ...test.body.events].map(
      (e: { event_data: { account: { account_number: string } } }) => e.event_data.account.account_number,
    );
    expect(numbers).toEqual(expect.arrayContaining([...Object.values(ACCOUNTS), TEST_EVENT_NUMBERS.top]));
  });

  it('delivers the numbers in the clear in webhooks', async () => {
    const delivered = webhooks.map((webhook) => JSON.parse(webhook.body));
    const numbers = delivered
      .filter((body) => body.event_type === 'verify_account_updated')
      .map((body) => body.event_data.account.account_number);
    expect(numbers).toEqual(expect.arrayContaining([...Object.values(ACCOUNTS), TEST_EVENT_NUMBERS.top]));
    const test = delivered.find((body) => body.event_id === testEventId);
    expect(test?.event_data.account.previous[0].account_number).toBe(TEST_EVENT_NUMBERS.nested);
  });
});
