import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as streamRouterHandler } from '#functions/pipeline/handlers/stream-router';
import type { LocalRuntime } from '#lib/local/runtime';
import type { BankProvider } from '#shared/bank/bank-provider';
import { SandboxBank } from '#shared/bank/sandbox-bank';
import { documentClient } from '#shared/db/document-client';
import { StoredEventRepository } from '#shared/db/stored-events/index';
import { eventKeys } from '#shared/db/stored-events/keys';
import { setDependencies } from '#shared/dependencies';
import { setLogSink } from '#shared/logger';
import { api, functionUnderTest, startTestRuntime } from '../harness';
import { accountBody, freshAccountNumber, storedItem } from '../verify-accounts/support';
import { recordWebhooks } from '../webhooks/support';

const streamRouter = functionUnderTest('StreamRouter', streamRouterHandler);

/**
 * Whole flows through the local runtime: HTTP → table → stream → router → verification
 * queue → worker → table → stream → event log → router fan-out → webhook delivery.
 */
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;
const TENANT = 'tenant-flows';

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = api(runtime, await runtime.mintToken(TENANT));
});
afterAll(() => runtime?.stop());

async function settled(body: Record<string, unknown>) {
  const created = await call.post('/verify/accounts', accountBody(body));
  expect(created.status).toBe(200);
  await runtime.settle();
  return (await call.get(`/verify/accounts/${created.body.account.id}`)).body.account;
}

async function storedEvents(tenant = TENANT) {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: runtime.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': eventKeys.list(tenant, 0) },
    }),
  );
  // The index holds ids only; the events themselves are read by key.
  const repository = new StoredEventRepository(documentClient(), runtime.tableName);
  return Promise.all(
    (out.Items ?? []).map(async (item) => ({
      id: String(item.id),
      ...(await repository.get(tenant, String(item.id)))!,
    })),
  );
}

/** The delivery messages the router fanned out, first attempts only (retries are the worker's). */
const fannedOut = () =>
  runtime.queues
    .queue('webhookDeliveries')
    .sentBodies<{ event_id: string; configuration_id: string; attempt: number }>()
    .filter((body) => body.attempt === 1);

describe('a new account settles through the pipeline', () => {
  it.each([
    ['1111', 'invalid', 'failed'],
    ['2222', 'closed', 'failed'],
    ['3333', 'failed', 'failed'],
    ['4444', 'valid', 'blocked'],
    ['5555', 'invalid', 'blocked'],
    ['6789', 'valid', 'valid'],
  ])('account ending %s → verification %s, debit %s', async (suffix, verification, debit) => {
    const account = await settled({ account_number: `${freshAccountNumber().slice(0, 8)}${suffix}` });
    expect(account).toMatchObject({ verification_status: verification, debit_status: debit });
  });

  it('reaches full, partial and not_found ownership', async () => {
    const person = { first_name: 'Jane', last_name: 'Doe', ssn: '078051120' };
    const full = await settled({ account_number: freshAccountNumber(), type: 'status_ownership', person });
    const partial = await settled({
      account_number: freshAccountNumber(),
      type: 'status_ownership',
      person: { ...person, last_name: 'Roe' },
    });
    const none = await settled({
      account_number: `${freshAccountNumber().slice(0, 8)}9999`,
      type: 'status_ownership',
      person,
    });
    expect([full.ownership_status, partial.ownership_status, none.ownership_status]).toEqual([
      'full',
      'partial',
      'not_found',
    ]);
    expect(full.person).toEqual({
      first_name: 'Jane',
      last_name: 'Doe',
      first_name_match: 'match',
      last_name_match: 'match',
      ssn_match: 'match',
    });
    const item = await storedItem(runtime, TENANT, full.id);
    expect(item?.ownership_secret).toBeUndefined();
  });

  it('emails the holder of a control account through the outbox, without the code', async () => {
    const before = runtime.outbox.messages.length;
    const account = await settled({ account_number: freshAccountNumber(), type: 'control', email: 'jane@example.com' });
    expect(account.control_status).toBe('pending');
    const mail = runtime.outbox.messages.slice(before);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: 'jane@example.com' });
  });
});

describe('verify_account_updated events', () => {
  it('are stored and delivered exactly once per status change', async () => {
    const tenant = 'tenant-events';
    const client = api(runtime, await runtime.mintToken(tenant));
    const delivered = await recordWebhooks(client);
    const created = await client.post(
      '/verify/accounts',
      accountBody({ account_number: freshAccountNumber(), type: 'control' }),
    );
    const id = created.body.account.id;
    await runtime.settle();
    // pending → valid (and the code sent), then control valid: two changes.
    expect((await client.post(`/verify/accounts/${id}/control`, { statement_code: '0000' })).status).toBe(200);
    await runtime.settle();

    const events = await storedEvents(tenant);
    expect(events).toHaveLength(2);
    const envelopes = events.map((e) => e.envelope).sort((a, b) => a.created_at.localeCompare(b.created_at));
    const accountOf = (e: (typeof envelopes)[number]) => e.event_data.account as Record<string, string>;
    expect(envelopes.map((e) => [e.event_type, accountOf(e).verification_status, accountOf(e).control_status])).toEqual(
      [
        ['verify_account_updated', 'valid', 'pending'],
        ['verify_account_updated', 'valid', 'valid'],
      ],
    );
    for (const e of envelopes) {
      expect(fannedOut().filter((body) => body.event_id === e.event_id)).toHaveLength(1);
      expect(delivered.filter((webhook) => webhook.eventId === e.event_id)).toHaveLength(1);
    }
  });

  it('are not duplicated when a stream batch is replayed: stored once, delivered once', async () => {
    const tenant = 'tenant-replay';
    const client = api(runtime, await runtime.mintToken(tenant));
    const delivered = await recordWebhooks(client);
    const created = await client.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
    await runtime.settle();
    const [event] = await storedEvents(tenant);
    const item = await storedItem(runtime, tenant, created.body.account.id);
    const before = { ...item, verification_status: 'pending', debit_status: 'pending', version: item!.version - 1 };
    const eventItem = (
      await documentClient().send(
        new GetCommand({ TableName: runtime.tableName, Key: eventKeys.event(tenant, event.id) }),
      )
    ).Item;

    // The same records Lambda would hand over again after a failed invocation.
    const replay: DynamoDBStreamEvent = {
      Records: [
        {
          eventName: 'MODIFY',
          dynamodb: {
            SequenceNumber: '1',
            OldImage: marshall(before, { removeUndefinedValues: true }) as never,
            NewImage: marshall(item, { removeUndefinedValues: true }) as never,
          },
        },
        {
          eventName: 'INSERT',
          dynamodb: {
            SequenceNumber: '2',
            NewImage: marshall(eventItem, { removeUndefinedValues: true }) as never,
          },
        },
      ],
    };
    expect((await streamRouter(replay)).batchItemFailures).toEqual([]);
    expect((await streamRouter(replay)).batchItemFailures).toEqual([]);

    const after = await storedEvents(tenant);
    expect(after.map((e) => e.id)).toEqual([event.id]);
    // Each replay fans the stored event out again, as the same first attempt of the same
    // delivery, which is what lets the delivery worker recognise and drop it.
    const [original, ...replayed] = fannedOut().filter((body) => body.event_id === event.id);
    expect(replayed).toEqual([original, original]);
    // The delivery worker drops both: the attempt is already recorded beside the event.
    await runtime.settle();
    expect(delivered.filter((webhook) => webhook.eventId === event.id)).toHaveLength(1);
    const attempts = (await client.get(`/events/${event.id}`)).body.event.attempts;
    expect(attempts).toHaveLength(1);
  });
});

describe('nothing is lost when the bank fails', () => {
  it('retries the verification, then dead-letters the message and keeps the account pending', async () => {
    let calls = 0;
    const failing: BankProvider = Object.assign(Object.create(SandboxBank.prototype), {
      checkAccount: async () => {
        calls++;
        throw new Error('bank unavailable');
      },
    });
    setDependencies({ bank: failing });
    const logs: string[] = [];
    setLogSink((line) => logs.push(line));
    try {
      const created = await call.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }));
      await runtime.settle();
      expect(calls).toBe(5);
      const dead = runtime.queues.deadLetterQueue('verification').bodies<{ id: string }>();
      expect(dead.map((m) => m.id)).toContain(created.body.account.id);
      const account = (await call.get(`/verify/accounts/${created.body.account.id}`)).body.account;
      expect(account.verification_status).toBe('pending');
      expect(logs.filter((l) => l.includes('bank unavailable'))).toHaveLength(5);
    } finally {
      setLogSink(undefined);
      setDependencies({ bank: undefined });
    }
  });
});
