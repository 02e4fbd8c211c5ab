import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { configurationItem } from '#shared/db/webhooks/item';
import { webhookKeys } from '#shared/db/webhooks/keys';
import { setDependencies } from '#shared/dependencies';
import { handler } from '../../../functions/pipeline/stream-router';
import { FakeQueue } from '../../support/fakes';
import { ddb, useHandlerHarness } from '../../support/handler-harness';
import { lambdaContext } from '../../support/http-events';
import { storedAccountItem } from '../../support/records';

const harness = useHandlerHarness();
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

    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));
    const replay = await handler(batch(changed));
    expect(replay.batchItemFailures).toEqual([]);
    expect(ddb.commandCalls(PutCommand)[1].args[0].input.Item?.id).toBe(put.Item?.id);
  });

  describe('a stored event (event INSERT) is fanned out from its stream image', () => {
    const envelope = { event_id: 'e1', event_type: 'verify_account_updated', created_at: 'x', event_data: {} };
    const inserted = () =>
      record('INSERT', {
        pk: 'T#t1#EVT#e1',
        sk: 'EVT',
        entity: 'event',
        tenant: 't1',
        id: 'e1',
        event_type: 'verify_account_updated',
        envelope,
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
        .on(QueryCommand, { ExpressionAttributeValues: { ':pk': webhookKeys.configurations('t1') } })
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

  it('reports the first failing record so the batch resumes there, and does nothing after it', async () => {
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
