import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { CONSUMERS, QUEUE_SETTINGS } from '#lib/service/index';
import { documentClient } from '#shared/db/document-client';
import { setLogSink } from '#shared/logger';
import { QUEUES, type QueueId } from '#shared/queue/message-queue';
import { api, startTestRuntime } from '../harness';
import { freshReference, personBody } from '../persons/support';
import { accountBody, freshAccountNumber } from '../verify-accounts/support';
import { startReceiver } from '../webhooks/receiver';
import { useTestDns } from '../webhooks/support';

/**
 * Poison never blocks the pipeline. Malformed messages in every queue of the queue list
 * (garbage, JSON of the wrong shape) are retried up to the queue's maxReceiveCount and
 * dead-lettered, while real work sent beside them completes; a stream record the router
 * cannot handle is retried, handed to the on-failure destination, and the shard moves on:
 * the records after it are processed.
 */
const TENANT = 'tenant-poison';
const POISON = ['not json', '{', 'null', '[1,2]', '{}', '{"tenant":42,"id":["x"]}'];
const POISON_PERSON = { pk: `T#${TENANT}#P#poison`, sk: 'P', entity: 'person', tenant: TENANT };

let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let call: ReturnType<typeof api>;
const work = {} as { account: string; person: string };
/** The functions' log lines (every failed receive is logged: kept here, not printed). */
const logs: string[] = [];

beforeAll(async () => {
  process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '60';
  setLogSink((line) => logs.push(line));
  receiver = await startReceiver();
  runtime = await startTestRuntime();
  useTestDns();
  call = api(runtime, await runtime.mintToken(TENANT));
  await call.post('/webhooks/secret');
  await call.post('/webhooks/configurations', {
    url: receiver.url('/hook'),
    event_types: ['subscribe_all'],
    enabled: true,
  });

  // A person item without a single field of a person: the stream router cannot make its event.
  // It is left to exhaust its retries before the real work starts, so the work's records
  // come after it in the shard, not in its batch (see the note in docs/threat-model.md).
  await documentClient().send(new PutCommand({ TableName: runtime.tableName, Item: POISON_PERSON }));
  await runtime.settle(30_000);
  for (const queue of Object.keys(QUEUES) as QueueId[]) {
    for (const body of POISON) runtime.queues.queue(queue).send(body);
  }
  // Real work behind the poison, on every queue: verification, identification, screening, webhooks.
  work.account = (
    await call.post('/verify/accounts', accountBody({ account_number: freshAccountNumber() }))
  ).body.account.id;
  work.person = (
    await call.post(
      '/persons',
      personBody({ customer_reference_id: freshReference(), first_name: 'Pia', last_name: 'Poison' }),
    )
  ).body.person.id;
  await runtime.settle(30_000);
  await call.post('/local/sanctions/entries', { name: 'Pia Poison' });
  await runtime.settle(30_000);
}, 90_000);

afterAll(async () => {
  setLogSink(undefined);
  await runtime?.stop();
  await receiver?.close();
  delete process.env.IDENTIFICATION_RETRY_DELAY_SECONDS;
});

describe('poison in the pipeline', () => {
  it('every queue of the queue list has a consumer', () => {
    const consumed = CONSUMERS.flatMap((c) => (c.source.kind === 'queue' ? [c.source.queue] : []));
    expect([...new Set(consumed)].sort()).toEqual(Object.keys(QUEUES).sort());
  });

  it.each(Object.keys(QUEUES) as QueueId[])(
    '%s: each malformed message is dead-lettered after maxReceiveCount receives, and nothing else is',
    (queue) => {
      const dead = runtime.queues.deadLetterQueue(queue).contents();
      expect(dead.map((message) => message.body).sort()).toEqual([...POISON].sort());
      for (const message of dead) expect(message.receiveCount).toBe(QUEUE_SETTINGS[queue].maxReceiveCount);
      expect(runtime.queues.queue(queue).size).toBe(0);
    },
  );

  it('completes the real work sent beside the poison, through every consumer', async () => {
    expect((await call.get(`/verify/accounts/${work.account}`)).body.account.verification_status).toBe('valid');
    const person = (await call.get(`/persons/${work.person}`)).body.person;
    expect(person.status).toBe('restricted');
    const delivered = receiver
      .at('/hook')
      .map((request) => JSON.parse(request.body) as { event_type: string; event_data: Record<string, { id: string }> });
    const about = (id: string) => delivered.filter((e) => Object.values(e.event_data)[0]?.id === id);
    expect(about(work.account).map((e) => e.event_type)).toContain('verify_account_updated');
    expect(about(work.person).map((e) => e.event_type)).toEqual([
      'person_created',
      'person_verified',
      'person_restricted',
    ]);
  });

  it('hands the poison stream record to the on-failure destination after its retries, and processes the records after it', () => {
    expect(runtime.streamFailures).toHaveLength(1);
    const [failure] = runtime.streamFailures;
    expect(failure?.consumer).toBe('StreamRouter');
    expect(failure?.condition).toBe('RetryAttemptsExhausted');
    expect(failure?.records.map((r) => r.dynamodb?.Keys?.pk?.S)).toEqual([POISON_PERSON.pk]);
  });
});
