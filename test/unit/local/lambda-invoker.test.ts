import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FunctionTimeoutError, LambdaInvoker } from '#lib/local/lambda-invoker';
import { LocalQueues } from '#lib/local/pipeline/local-queues';
import { AbandonedWorkError } from '#shared/abandoned-work';
import { resetDependencies, setDependencies } from '#shared/dependencies';
import { holdConsumer } from './fixtures/held-consumer';

/**
 * In Lambda an invocation whose time is up is stopped: its execution environment is frozen
 * and reset, so nothing it was about to do happens. Locally the handler's promise cannot be
 * stopped, so once its time is up its queue sends and table calls are refused, as a request
 * answered 503 for its time has them refused (#shared/abandoned-work). Otherwise a queue
 * message or a stream batch retried after a timeout would be worked on twice at once.
 */
const ddb = mockClient(DynamoDBDocumentClient);
let queues: LocalQueues;

beforeEach(() => {
  ddb.reset();
  ddb.resolves({});
  queues = new LocalQueues({ timeScale: 1, region: 'us-east-1' });
  setDependencies({ queue: queues });
});
afterEach(async () => {
  resetDependencies();
  await queues.close();
});

const CONSUMER = { handler: 'test/unit/local/fixtures/held-consumer.ts', timeoutMs: 20 };
const sqsEvent = { Records: [{ messageId: 'm-1', body: '{}', eventSource: 'aws:sqs' }] };
const streamEvent = { Records: [{ eventID: 'e-1', eventName: 'INSERT', eventSource: 'aws:dynamodb' }] };

describe('an invocation whose time ran out', () => {
  it.each([
    ['a queue worker', 'VerificationWorker', sqsEvent],
    ['a stream consumer', 'StreamRouter', streamEvent],
  ])(
    'of %s sends no message and makes no table call afterwards, as Lambda would have frozen it',
    async (_kind, name, event) => {
      const held = holdConsumer();

      await expect(new LambdaInvoker().invoke({ ...CONSUMER, name }, event)).rejects.toBeInstanceOf(
        FunctionTimeoutError,
      );
      held.release();
      const { send, put } = await held.done;

      expect(send).toBeInstanceOf(AbandonedWorkError);
      expect(put).toBeInstanceOf(AbandonedWorkError);
      expect(queues.queue('verification').size).toBe(0);
      expect(ddb.calls()).toEqual([]);
    },
  );

  it('an invocation that ends in time sends as usual', async () => {
    const held = holdConsumer();
    held.release();

    await new LambdaInvoker().invoke({ ...CONSUMER, name: 'VerificationWorker', timeoutMs: 60_000 }, sqsEvent);
    const { send, put } = await held.done;

    expect(send).toBe('sent');
    expect(put).toBe('sent');
    expect(queues.queue('verification').size).toBe(1);
  });
});
