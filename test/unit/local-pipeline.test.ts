import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { LambdaInvoker } from '../../lib/local/lambda-invoker';
import { LocalQueues } from '../../lib/local/local-queues';
import { silentLog } from '../../lib/local/log';
import { LocalOutbox } from '../../lib/local/outbox';
import { settle } from '../../lib/local/pipeline';
import { Activity, type PipelineWorker } from '../../lib/local/pipeline-worker';
import { QueueConsumer, type QueueConsumerDefinition } from '../../lib/local/queue-consumer';
import { ScheduleRunner } from '../../lib/local/schedules';
import type { WorkerContext } from '../../lib/local/workers';

/** A worker context whose invoker calls `handler` directly. */
const contextWith = (handler: (event: any) => unknown): WorkerContext => ({
  tableName: 't',
  table: {},
  dynamoEndpoint: 'http://127.0.0.1:1',
  invoker: { invoke: async (_fn: unknown, event: unknown) => handler(event) } as unknown as LambdaInvoker,
  log: silentLog,
});

const stopLater: PipelineWorker[] = [];
afterEach(async () => {
  for (const worker of stopLater.splice(0)) await worker.stop();
});

describe("queue consumer (as Lambda's SQS event source mapping)", () => {
  const consumer: QueueConsumerDefinition = {
    id: 'Worker',
    handler: 'unused.ts',
    source: { kind: 'queue', queue: 'verification', batchSize: 10 },
    table: 'read',
    timeoutSeconds: 5,
  };

  function start(handler: (event: SQSEvent) => unknown) {
    // 180 s visibility × 1/1800 = 100 ms: retries come quickly.
    const queues = new LocalQueues({ timeScale: 1 / 1800, region: 'us-east-1' });
    const activity = new Activity();
    const worker = new QueueConsumer(consumer, { queue: queues.queue('verification'), activity, region: 'us-east-1' });
    worker.start(contextWith(handler));
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

describe('schedule runner', () => {
  it('never overlaps runs, and an on-demand run waits for the current one', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const runner = new ScheduleRunner(
      {
        id: 'Nightly',
        handler: 'unused.ts',
        source: { kind: 'schedule', cron: { minute: '0', hour: '3' }, localEveryMs: 20 },
        table: 'read',
        timeoutSeconds: 5,
      },
      { activity: new Activity(), region: 'us-east-1' },
    );
    runner.start(
      contextWith(async (event) => {
        expect(event).toMatchObject({ 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} });
        most = Math.max(most, ++running);
        await sleep(30);
        running--;
        return ++runs;
      }),
    );
    stopLater.push(runner);
    const [first, second] = (await Promise.all([runner.run(), runner.run()])) as number[];
    expect(second).toBe(first + 1);
    await sleep(100); // timer ticks too
    await runner.stop();
    expect(runs).toBeGreaterThan(2);
    expect(most).toBe(1);
  });
});

describe('settle', () => {
  /** A worker that is busy until `free` is called. */
  const fakeWorker = (name: string) => {
    let busy = true;
    const worker: PipelineWorker = {
      name,
      start: () => {},
      stop: () => {},
      wake: () => {},
      busy: () => (busy ? `${name} busy` : undefined),
    };
    return { worker, free: () => (busy = false) };
  };

  it('waits for every worker, then for a round without new work', async () => {
    const activity = new Activity();
    const a = fakeWorker('a');
    let settled = false;
    const done = settle([a.worker], activity, 1_000).then(() => (settled = true));
    await sleep(30);
    expect(settled).toBe(false);
    activity.touch(); // work happened during the round: another round is needed
    a.free();
    await done;
    expect(settled).toBe(true);
  });

  it('rejects after the timeout, saying what is busy', async () => {
    await expect(settle([fakeWorker('poller').worker], new Activity(), 50)).rejects.toThrow(/poller busy/);
  });
});

describe('local outbox', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes each email as a readable file, logs its path and keeps it in memory', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    const logged: string[] = [];
    const outbox = new LocalOutbox(join(dir, 'outbox'), (level, message) => logged.push(`${level} ${message}`));
    await outbox.send({ to: 'jane@example.com', subject: 'Hello\nthere', text: 'Line 1\nLine 2' });
    const [email] = outbox.messages;
    expect(email).toMatchObject({ to: 'jane@example.com', subject: 'Hello\nthere' });
    const content = await readFile(email.path, 'utf8');
    const [headers, body] = content.split('\n\n');
    expect(headers).toMatch(
      /^To: jane@example\.com\nSubject: Hello there\nDate: \w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT$/,
    );
    expect(body).toBe('Line 1\nLine 2\n');
    expect(logged).toEqual([`info email written to the outbox: ${email.path}`]);
  });
});
