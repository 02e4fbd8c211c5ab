import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { Availability } from '#lib/local/availability';
import { settle } from '#lib/local/pipeline/local-pipeline';
import { LocalQueues } from '#lib/local/pipeline/local-queues';
import { Activity, type PipelineWorker } from '#lib/local/pipeline/pipeline-worker';
import { SQS_POLLER_STEP_MS, SQS_POLLERS_AT_START } from '#lib/local/pipeline/poller-scaling';
import { QueueConsumer, type QueueConsumerDefinition } from '#lib/local/pipeline/queue-consumer';
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

  /**
   * The scaling's clock is stopped (`clock.advance` moves it): no batch is added however
   * long a busy machine takes, unless a test moves it on.
   */
  function start(
    handler: (event: SQSEvent) => unknown,
    source: Partial<QueueConsumerDefinition['source']> = {},
    availability = new Availability(),
  ) {
    // 180 s visibility × 1/1800 = 100 ms: retries come quickly.
    const queues = new LocalQueues({ timeScale: 1 / 1800, region: 'us-east-1' });
    const activity = new Activity();
    const clock = { at: 0, advance: (ms: number) => (clock.at += ms) };
    const worker = new QueueConsumer(
      { ...consumer, source: { ...consumer.source, ...source } },
      { queue: queues.queue('verification'), activity, region: 'us-east-1', now: () => clock.at },
    );
    worker.start(fakeWorkerContext(handler, availability));
    stopLater.push(worker);
    return { queues, activity, worker, clock };
  }

  it('receives nothing while the table is down, so no message uses up a receive, and carries on once it is up', async () => {
    const availability = new Availability();
    availability.markDown('DynamoDB Local exited');
    const seen: string[] = [];
    const { queues, activity, worker } = start(
      (event) => {
        for (const r of event.Records) seen.push(r.attributes.ApproximateReceiveCount);
      },
      {},
      availability,
    );
    await queues.send('verification', [{ id: '1', body: { n: 1 } }]);
    await sleep(300); // three visibility timeouts: a consumer that did not wait would have received it by now

    expect(seen).toEqual([]);
    expect(queues.queue('verification').contents()[0]?.receiveCount).toBe(0);
    expect(worker.busy()).toMatch(/holds 1 message/);

    availability.markUp();
    await settle([worker], activity, 2_000);
    expect(seen).toEqual(['1']);
  });

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

  /**
   * A handler that takes 20 ms a batch and notes the most batches it ran at once and the
   * messages it handled (on a busy machine a batch can outlast the 100 ms visibility
   * timeout, and its messages come again, as in SQS).
   */
  function slowHandler() {
    const seen = { running: 0, most: 0, messages: new Set<string>() };
    const handler = async (event: SQSEvent) => {
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      await sleep(20);
      for (const record of event.Records) seen.messages.add(record.messageId);
      seen.running--;
    };
    return { seen, handler };
  }
  const messages = (count: number) => Array.from({ length: count }, (_, n) => ({ id: String(n), body: n }));

  it(`runs up to ${SQS_POLLERS_AT_START} batches of one queue at once, as Lambda's SQS poller starts with, each of at most batchSize`, async () => {
    const { seen, handler } = slowHandler();
    const sizes: number[] = [];
    const { queues, activity, worker } = start(
      (event) => {
        sizes.push(event.Records.length);
        return handler(event);
      },
      { batchSize: 2 },
    );
    await queues.send('verification', messages(10));
    await queues.send('verification', messages(10));
    await settle([worker], activity, 5_000);
    expect(seen.messages.size).toBe(20);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2);
    expect(seen.most).toBe(SQS_POLLERS_AT_START);
  });

  /** A handler whose batches wait while the gate is closed: how many run at once is then the consumer's choice alone. */
  function heldHandler() {
    const closed = () => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { opened, open };
    };
    let gate = closed();
    const held = { running: 0 };
    const handler = async () => {
      held.running++;
      try {
        await gate.opened;
      } finally {
        held.running--;
      }
    };
    return {
      held,
      handler,
      open: () => gate.open(),
      close: () => {
        gate = closed();
      },
    };
  }
  /** Until `count` batches run, or 10 s: a bound only a consumer that never starts them reaches. */
  async function running(held: { running: number }, count: number) {
    for (let waited = 0; held.running < count && waited < 10_000; waited += 5) await sleep(5);
    return held.running;
  }
  /**
   * The batches running once the consumer has had its turns: one that would start another
   * would have in 50 ms (on a busy machine it may not have, and the check passes: it never
   * fails a consumer that is right).
   */
  async function stillRunning(held: { running: number }) {
    await sleep(50);
    return held.running;
  }

  /** With the first batches all running and messages waiting: none more 1 ms before a step, one more at it. */
  async function expectOneBatchAfterOneStep(
    held: { running: number },
    worker: QueueConsumer,
    clock: { advance: (ms: number) => number },
  ) {
    clock.advance(SQS_POLLER_STEP_MS - 1);
    worker.wake();
    expect(await stillRunning(held)).toBe(SQS_POLLERS_AT_START);
    clock.advance(1);
    worker.wake();
    expect(await running(held, SQS_POLLERS_AT_START + 1)).toBe(SQS_POLLERS_AT_START + 1);
  }

  it('adds a batch every 200 ms while messages still wait and every batch runs, up to maxConcurrency, as Lambda scales its SQS pollers', {
    timeout: 120_000,
  }, async () => {
    const { held, handler, open } = heldHandler();
    const { queues, activity, worker, clock } = start(handler, { batchSize: 1, maxConcurrency: 8 });
    try {
      await queues.send('verification', messages(20));
      expect(await running(held, SQS_POLLERS_AT_START)).toBe(SQS_POLLERS_AT_START);

      await expectOneBatchAfterOneStep(held, worker, clock);
      // A long pause is one step, one batch more: not ten at once.
      clock.advance(10 * SQS_POLLER_STEP_MS);
      worker.wake();
      expect(await running(held, 7)).toBe(7);
      expect(await stillRunning(held)).toBe(7);
      clock.advance(SQS_POLLER_STEP_MS);
      worker.wake();
      expect(await running(held, 8)).toBe(8);
      // maxConcurrency is the ceiling.
      clock.advance(10 * SQS_POLLER_STEP_MS);
      worker.wake();
      expect(await stillRunning(held)).toBe(8);
    } finally {
      open();
    }
    await settle([worker], activity, 5_000);
    expect(queues.queue('verification').size).toBe(0);
  });

  it('goes back to the batches it started with once a receive finds the queue empty', {
    timeout: 120_000,
  }, async () => {
    const { held, handler, open, close } = heldHandler();
    const { queues, activity, worker, clock } = start(handler, { batchSize: 1, maxConcurrency: 50 });
    try {
      // Five run and three wait: three steps start them all, and nothing waits.
      await queues.send('verification', messages(8));
      expect(await running(held, SQS_POLLERS_AT_START)).toBe(SQS_POLLERS_AT_START);
      for (let step = 1; step <= 3; step++) {
        clock.advance(SQS_POLLER_STEP_MS);
        worker.wake();
        expect(await running(held, SQS_POLLERS_AT_START + step)).toBe(SQS_POLLERS_AT_START + step);
      }
      open();
      await settle([worker], activity, 5_000);
      expect(held.running).toBe(0);

      close();
      await queues.send('verification', messages(20));
      expect(await running(held, SQS_POLLERS_AT_START)).toBe(SQS_POLLERS_AT_START);
      expect(await stillRunning(held)).toBe(SQS_POLLERS_AT_START);
      await expectOneBatchAfterOneStep(held, worker, clock);
    } finally {
      open();
    }
  });

  it("never runs more batches at once than the row's maxConcurrency", async () => {
    const { seen, handler } = slowHandler();
    const { queues, activity, worker } = start(handler, { batchSize: 1, maxConcurrency: 2 });
    await queues.send('verification', messages(10));
    await settle([worker], activity, 5_000);
    expect(seen.messages.size).toBe(10);
    expect(seen.most).toBe(2);
  });

  it('never hands a message to a second batch while its first is running, though the batch outlasts the visibility timeout', async () => {
    const receives: string[] = [];
    const { queues, activity, worker } = start(
      async (event) => {
        for (const record of event.Records)
          receives.push(`${record.body}#${record.attributes.ApproximateReceiveCount}`);
        await sleep(250); // the visibility timeout is 100 ms
      },
      { batchSize: 1 },
    );
    await queues.send('verification', messages(3));
    await settle([worker], activity, 5_000);
    expect(receives.sort()).toEqual(['0#1', '1#1', '2#1']);
    expect(queues.deadLetterQueue('verification').size).toBe(0);
  });
});
