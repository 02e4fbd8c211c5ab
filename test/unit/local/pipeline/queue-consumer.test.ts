import { createHash } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { settle } from '../../../../lib/local/pipeline/local-pipeline';
import { LocalQueues } from '../../../../lib/local/pipeline/local-queues';
import { Activity, type PipelineWorker } from '../../../../lib/local/pipeline/pipeline-worker';
import { QueueConsumer, type QueueConsumerDefinition } from '../../../../lib/local/pipeline/queue-consumer';
import { fakeWorkerContext } from './fake-worker-context';

const stopLater: PipelineWorker[] = [];
afterEach(async () => {
  for (const worker of stopLater.splice(0)) await worker.stop();
});

describe("queue consumer (as Lambda's SQS event source mapping)", () => {
  const consumer: QueueConsumerDefinition = {
    id: 'Worker',
    handler: 'unused.ts',
    source: { kind: 'queue', queue: 'verification', batchSize: 10 },
    table: { actions: [] },
    timeoutSeconds: 5,
  };

  function start(handler: (event: SQSEvent) => unknown) {
    // 180 s visibility × 1/1800 = 100 ms: retries come quickly.
    const queues = new LocalQueues({ timeScale: 1 / 1800, region: 'us-east-1' });
    const activity = new Activity();
    const worker = new QueueConsumer(consumer, { queue: queues.queue('verification'), activity, region: 'us-east-1' });
    worker.start(fakeWorkerContext(handler));
    stopLater.push(worker);
    return { queues, activity, worker };
  }

  it('delivers an SQSEvent as Lambda builds it and deletes what succeeded', async () => {
    const events: SQSEvent[] = [];
    const { queues, activity, worker } = start((event) => void events.push(event));
    await queues.send('verification', [{ id: '1', body: { n: 1 } }]);
    await settle([worker], activity, 2_000);
    expect(queues.queue('verification').size).toBe(0);
    const [record] = events[0].Records;
    expect(record).toEqual({
      messageId: expect.any(String),
      receiptHandle: expect.any(String),
      body: '{"n":1}',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d{13}$/),
        SenderId: expect.any(String),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d{13}$/),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update('{"n":1}').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: queues.queue('verification').arn,
      awsRegion: 'us-east-1',
    });
  });

  it('retries only the reported failures, and dead-letters a message after maxReceiveCount receives', async () => {
    const seen: string[] = [];
    const { queues, activity, worker } = start((event) => {
      for (const r of event.Records) seen.push(`${r.body}#${r.attributes.ApproximateReceiveCount}`);
      return {
        batchItemFailures: event.Records.filter((r) => r.body === '"bad"').map((r) => ({
          itemIdentifier: r.messageId,
        })),
      };
    });
    await queues.send('verification', [
      { id: 'g', body: 'good' },
      { id: 'b', body: 'bad' },
    ]);
    await settle([worker], activity, 5_000);
    expect(seen.filter((s) => s.startsWith('"good"'))).toEqual(['"good"#1']);
    expect(seen.filter((s) => s.startsWith('"bad"'))).toEqual(['"bad"#1', '"bad"#2', '"bad"#3', '"bad"#4', '"bad"#5']);
    expect(queues.deadLetterQueue('verification').bodies()).toEqual(['bad']);
  });

  it('counts a thrown handler as a failure of the whole batch', async () => {
    let calls = 0;
    const { queues, activity, worker } = start(() => {
      calls++;
      if (calls === 1) throw new Error('boom');
      return { batchItemFailures: [] };
    });
    await queues.send('verification', [
      { id: '1', body: 1 },
      { id: '2', body: 2 },
    ]);
    await settle([worker], activity, 2_000);
    expect(calls).toBe(2);
    expect(queues.deadLetterQueue('verification').size).toBe(0);
  });
});
