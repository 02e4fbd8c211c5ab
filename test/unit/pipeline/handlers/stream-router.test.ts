import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { handler as streamRouter } from '#functions/pipeline/handlers/stream-router';
import { configurationItem } from '#shared/db/webhook-configurations/item';
import { webhookConfigurationKeys } from '#shared/db/webhook-configurations/keys';
import { setDependencies } from '#shared/dependencies';
import { FakeQueue } from '#test/support/fakes';
import { ddb, functionUnderTest, useHandlerHarness } from '#test/support/handler-harness';
import { lambdaContext } from '#test/support/http-events';
import { storedAccountItem, storedPersonItem, TEST_FIELD_CIPHER } from '#test/support/records';

const harness = useHandlerHarness();
const handler = functionUnderTest('StreamRouter', streamRouter);
let queue: FakeQueue;
beforeEach(() => {
  queue = new FakeQueue();
  setDependencies({ queue });
});

const accountImage = storedAccountItem;

let sequence = 100;
const record = (eventName: 'INSERT' | 'MODIFY', newImage: object, oldImage?: object): DynamoDBRecord => ({
  eventName,
  dynamodb: {
    SequenceNumber: String(++sequence),
    NewImage: marshall(newImage) as never,
    OldImage: oldImage ? (marshall(oldImage) as never) : undefined,
  },
});
const batch = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

describe('stream router', () => {
  it('queues every new account for verification', async () => {
    const result = await handler(batch(record('INSERT', accountImage('a1')), record('INSERT', accountImage('a2'))));
    expect(result.batchItemFailures).toEqual([]);
    expect(queue.sent.map((s) => [s.queue, s.message.body])).toEqual([
      ['verification', { tenant: 't1', id: 'a1' }],
      ['verification', { tenant: 't1', id: 'a2' }],
    ]);
  });

  it('stores an event for a status change, conditionally so a replay stores none', async () => {
    const changed = record(
      'MODIFY',
      accountImage('a1', { verification_status: 'valid', version: 2 }),
      accountImage('a1'),
    );
    await handler(batch(changed));
    const put = ddb.commandCalls(PutCommand)[0].args[0].input;
    expect(put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(put.Item).toMatchObject({ entity: 'event', event_type: 'verify_account_updated', tenant: 't1' });
    // The account's number, opened from the image, is sealed again to the event.
    const stored = put.Item?.envelope.event_data.account.account_number;
    expect(stored).toMatch(/^fk1:/);
    const owner = { tenant: 't1', record: put.Item?.id };
    expect(TEST_FIELD_CIPHER.open(stored, owner, 'event_data.account.account_number')).toBe('"1234567890"');

    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    const replay = await handler(batch(changed));
    expect(replay.batchItemFailures).toEqual([]);
    expect(ddb.commandCalls(PutCommand)[1].args[0].input.Item?.id).toBe(put.Item?.id);
  });

  describe('a stored event (event INSERT) is fanned out from its stream image', () => {
    const inserted = (id = 'e1') =>
      record('INSERT', {
        pk: `T#t1#EVT#${id}`,
        sk: 'EVT',
        entity: 'event',
        tenant: 't1',
        id,
        event_type: 'verify_account_updated',
        envelope: { event_id: id, event_type: 'verify_account_updated', created_at: 'x', event_data: {} },
      });
    const configuration = (id: string, over: Partial<WebhookConfiguration> = {}) =>
      configurationItem({
        id,
        tenant: 't1',
        url: `https://hooks.example.com/${id}`,
        event_types: ['verify_account_updated'],
        enabled: true,
        data_version: 'v2022-09-21',
        created_at: `2026-11-18T12:00:0${id.length}.000Z`,
        created_by: 'c',
        updated_at: 'x',
        updated_by: 'c',
        version: 1,
        ...over,
      });
    const givenConfigurations = (...items: Record<string, unknown>[]) =>
      ddb
        .on(QueryCommand, { ExpressionAttributeValues: { ':pk': webhookConfigurationKeys.configurations('t1') } })
        .resolves({ Items: items });

    it('sends one first-attempt delivery per enabled configuration subscribed to its type, in one batch', async () => {
      givenConfigurations(
        configuration('c1'),
        configuration('c2', { event_types: ['subscribe_all'] }),
        configuration('c3', { enabled: false }),
        configuration('c4', { event_types: ['person_all'] }),
      );

      const result = await handler(batch(inserted()));

      expect(result.batchItemFailures).toEqual([]);
      expect(queue.sent.map((s) => [s.queue, s.message.body])).toEqual([
        ['webhookDeliveries', { tenant: 't1', event_id: 'e1', configuration_id: 'c2', attempt: 1 }],
        ['webhookDeliveries', { tenant: 't1', event_id: 'e1', configuration_id: 'c1', attempt: 1 }],
      ]);
      expect(queue.batches).toEqual([2]);
    });

    it('sends the deliveries of every event of the batch in one call, in the records’ order, with distinct ids', async () => {
      givenConfigurations(configuration('c1'), configuration('c2'));

      const result = await handler(batch(inserted('e1'), inserted('e2'), inserted('e3')));

      expect(result.batchItemFailures).toEqual([]);
      expect(queue.batches).toEqual([6]);
      expect(queue.sent.map((s) => [s.queue, (s.message.body as { event_id: string }).event_id])).toEqual(
        ['e1', 'e1', 'e2', 'e2', 'e3', 'e3'].map((id) => ['webhookDeliveries', id]),
      );
      expect(new Set(queue.sent.map((s) => s.message.id)).size).toBe(6);
    });

    it('reads a tenant’s configurations once per batch, however many of its events the batch holds, and again in the next', async () => {
      givenConfigurations(configuration('c1'));
      const configurationReads = () =>
        ddb
          .commandCalls(QueryCommand)
          .filter(
            (call) =>
              call.args[0].input.ExpressionAttributeValues?.[':pk'] === webhookConfigurationKeys.configurations('t1'),
          );

      await handler(batch(inserted('e1'), inserted('e2'), inserted('e3')));
      expect(configurationReads()).toHaveLength(1);

      givenConfigurations(configuration('c1', { enabled: false }));
      await handler(batch(inserted('e4')));

      expect(configurationReads()).toHaveLength(2);
      expect(queue.sent.map((s) => (s.message.body as { event_id: string }).event_id)).toEqual(['e1', 'e2', 'e3']);
    });

    it('reads and writes nothing of the event itself: its id and type come from the stream image', async () => {
      givenConfigurations(configuration('c1'));

      await handler(batch(inserted()));

      expect(ddb.commandCalls(GetCommand)).toEqual([]);
      expect(ddb.commandCalls(UpdateCommand)).toEqual([]);
      expect(ddb.commandCalls(PutCommand)).toEqual([]);
      expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
    });

    it('sends nothing when no configuration takes the event', async () => {
      givenConfigurations(configuration('c4', { event_types: ['person_all'] }));

      expect((await handler(batch(inserted()))).batchItemFailures).toEqual([]);
      expect(queue.sent).toEqual([]);
    });

    it('fails the record, so the batch resumes there, when the deliveries cannot be sent', async () => {
      givenConfigurations(configuration('c1'));
      queue.failOn = 'webhookDeliveries';
      const only = inserted();

      expect((await handler(batch(only))).batchItemFailures).toEqual([
        { itemIdentifier: only.dynamodb?.SequenceNumber },
      ]);
    });
  });

  it('reports the first failing record so the batch resumes there, and sends nothing of it or after it', async () => {
    const first = record('INSERT', accountImage('a1'));
    const failing = record(
      'MODIFY',
      accountImage('a2', { verification_status: 'valid', version: 2 }),
      accountImage('a2'),
    );
    const after = record('INSERT', accountImage('a3'));
    ddb.on(PutCommand).rejects(new Error('throttled'));

    const result = await handler(batch(first, failing, after));

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: failing.dynamodb?.SequenceNumber }]);
    expect(queue.sent.map((s) => s.message.id)).toEqual(['a1']);
  });

  describe('the queue messages of a batch are held and sent together at its end', () => {
    const statusChange = (id: string) =>
      record('MODIFY', accountImage(id, { verification_status: 'valid', version: 2 }), accountImage(id));
    /** Both a verification message and an event: a settled account whose debit check was restarted. */
    const debitRestart = (id: string) =>
      record(
        'MODIFY',
        accountImage(id, { verification_status: 'valid', debit_status: 'pending', version: 3 }),
        accountImage(id, { verification_status: 'valid', debit_status: 'blocked', version: 2 }),
      );
    const sequenceOf = (r: DynamoDBRecord) => r.dynamodb?.SequenceNumber;
    const loggedFailure = () => harness.logs.map((line) => JSON.parse(line)).find((l) => l.level === 'ERROR');

    it('sends one call per queue for the whole batch, each queue in the records’ order', async () => {
      const result = await handler(
        batch(
          record('INSERT', accountImage('a1')),
          record('INSERT', storedPersonItem('t1', 'p1')),
          record('INSERT', accountImage('a2')),
          record('INSERT', storedPersonItem('t1', 'p2')),
          record('INSERT', accountImage('a3')),
        ),
      );

      expect(result.batchItemFailures).toEqual([]);
      expect(queue.batches).toEqual([3, 2]);
      expect(queue.sent.map((s) => [s.queue, s.message.id])).toEqual([
        ['verification', 'a1'],
        ['verification', 'a2'],
        ['verification', 'a3'],
        ['identification', 'p1'],
        ['identification', 'p2'],
      ]);
    });

    it('stores the events of a batch side by side, a few records ahead, its messages still in the records’ order', async () => {
      let inFlight = 0;
      let most = 0;
      ddb.on(PutCommand).callsFake(async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return {};
      });
      const ids = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];

      const result = await handler(batch(...ids.map(debitRestart)));

      expect(result.batchItemFailures).toEqual([]);
      expect(most).toBeGreaterThan(1);
      expect(
        ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item?.envelope.event_data.account.id),
      ).toEqual(ids);
      expect(queue.sent.map((s) => s.message.id)).toEqual(ids);
    });

    it('at a failing record, waits for the records started after it before it answers', async () => {
      let settled = 0;
      ddb.on(PutCommand).callsFake(async (input) => {
        await new Promise((resolve) =>
          setTimeout(resolve, input.Item?.envelope.event_data.account.id === 'a1' ? 1 : 10),
        );
        settled += 1;
        if (input.Item?.envelope.event_data.account.id === 'a1') throw new Error('throttled');
        return {};
      });
      const failing = statusChange('a1');

      const result = await handler(batch(failing, statusChange('a2'), statusChange('a3')));

      expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(failing) }]);
      expect(settled).toBe(ddb.commandCalls(PutCommand).length);
      expect(queue.sent).toEqual([]);
    });

    it('reports a record that failed while an earlier one was still running at its turn, the earlier one’s messages sent', async () => {
      ddb.on(PutCommand).callsFake(async (input) => {
        const id = input.Item?.envelope.event_data.account.id;
        await new Promise((resolve) => setTimeout(resolve, id === 'a1' ? 20 : 1));
        if (id === 'a2') throw new Error('throttled');
        return {};
      });
      const failing = debitRestart('a2');

      const result = await handler(batch(debitRestart('a1'), failing, debitRestart('a3')));

      expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(failing) }]);
      expect(queue.sent.map((s) => s.message.id)).toEqual(['a1']);
    });

    it('at a failing record, still sends what the records before it asked for, and nothing of it or after it', async () => {
      const failing = debitRestart('a3');
      ddb.on(PutCommand).rejects(new Error('throttled'));

      const result = await handler(
        batch(
          record('INSERT', accountImage('a1')),
          record('INSERT', accountImage('a2')),
          failing,
          record('INSERT', accountImage('a4')),
        ),
      );

      expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(failing) }]);
      expect(queue.sent.map((s) => s.message.id)).toEqual(['a1', 'a2']);
      expect(queue.batches).toEqual([2]);
    });

    it('reports a record it cannot read by itself, after sending what the records before it asked for', async () => {
      const poison: DynamoDBRecord = {
        eventName: 'INSERT',
        dynamodb: {
          SequenceNumber: String(++sequence),
          NewImage: { entity: { S: 'person' }, id: { Z: '?' } } as never,
        },
      };

      const result = await handler(
        batch(record('INSERT', accountImage('a1')), poison, record('INSERT', accountImage('a3'))),
      );

      expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(poison) }]);
      expect(queue.sent.map((s) => s.message.id)).toEqual(['a1']);
    });

    it('reports the earliest record with a held message when the queue refuses the batch’s messages', async () => {
      queue.failOn = 'verification';
      const eventOnly = statusChange('a1');
      const firstQueued = record('INSERT', accountImage('a2'));

      const result = await handler(batch(eventOnly, firstQueued, record('INSERT', accountImage('a3'))));

      expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(firstQueued) }]);
      expect(ddb.commandCalls(PutCommand)).toHaveLength(1);
      expect(loggedFailure()).toMatchObject({
        sequence_number: sequenceOf(firstQueued),
        error: { message: 'queue verification is down' },
      });
    });

    it('reports the earliest record with a held message, whichever queue refused', async () => {
      queue.failOn = 'verification';
      const person = record('INSERT', storedPersonItem('t1', 'p1'));

      const result = await handler(batch(person, record('INSERT', accountImage('a1'))));

      expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(person) }]);
    });

    it('reports the earlier record when a record fails and then the send fails too', async () => {
      queue.failOn = 'verification';
      ddb.on(PutCommand).rejects(new Error('throttled'));
      const queued = record('INSERT', accountImage('a1'));

      const result = await handler(batch(queued, statusChange('a2'), record('INSERT', accountImage('a3'))));

      expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(queued) }]);
      expect(loggedFailure()).toMatchObject({ sequence_number: sequenceOf(queued) });
    });

    it('gives a message id asked twice in one batch a suffix, as ids must be distinct within one send', async () => {
      const change = (n: number) =>
        record('INSERT', { pk: `SCREEN#CHANGE#c${n}`, sk: 'CHANGE', entity: 'screening_change', change_id: `c${n}` });

      await handler(batch(change(1), change(2)));

      const shard0 = queue.sent.filter((s) => (s.message.body as { shard: number }).shard === 0);
      expect(shard0.map((s) => [s.queue, s.message.id, s.message.body])).toEqual([
        ['screening', 'shard-0', { kind: 'change', change_id: 'c1', shard: 0 }],
        ['screening', 'shard-0#2', { kind: 'change', change_id: 'c2', shard: 0 }],
      ]);
    });
  });

  it('fails the record when the queue refuses the message', async () => {
    queue.failOn = 'verification';
    const only = record('INSERT', accountImage('a1'));
    expect((await handler(batch(only))).batchItemFailures).toEqual([{ itemIdentifier: only.dynamodb?.SequenceNumber }]);
  });

  it('logs a failed record with its sequence number and the invocation’s Lambda request id', async () => {
    queue.failOn = 'verification';
    const only = record('INSERT', accountImage('a1'));
    const context = lambdaContext();

    await handler(batch(only), context);

    const failed = harness.logs.map((line) => JSON.parse(line)).find((l) => l.level === 'ERROR');
    expect(failed).toMatchObject({
      worker: 'stream-router',
      sequence_number: only.dynamodb?.SequenceNumber,
      function_request_id: context.awsRequestId,
      error: { message: 'queue verification is down' },
    });
  });
});
