import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogLevel } from '#lib/local/log';
import type { LocalRuntime } from '#lib/local/runtime';
import { QUEUE_SETTINGS } from '#lib/service/index';
import { notifier } from '#shared/notify/index';
import { messageQueue } from '#shared/queue/index';
import { FAST_TIMINGS, QUEUE_FIXTURES } from '#test/integration/fixtures/pipeline-consumers';
import { fixtureStore } from '#test/integration/fixtures/pipeline-store';
import { startTestRuntime } from '#test/integration/harness';

/** In-process queues, schedules and the outbox, with fixture consumers. */
const logged: { level: LogLevel; message: string }[] = [];
let runtime: LocalRuntime;
let outboxDir: string;
const store = fixtureStore();

beforeAll(async () => {
  outboxDir = await mkdtemp(join(tmpdir(), 'outbox-'));
  runtime = await startTestRuntime({
    routes: [],
    consumers: QUEUE_FIXTURES,
    pipelineTimings: FAST_TIMINGS,
    outboxDir,
    log: (level, message) => logged.push({ level, message }),
  });
});
afterAll(async () => {
  await runtime?.stop();
  await rm(outboxDir, { recursive: true, force: true });
});

const deliveriesOf = (tag: string) => store.queueDeliveries.filter((d) => d.body.tag === tag);

describe('local queues (as SQS with a Lambda event source mapping)', () => {
  it('delivers a message as an SQSEvent record and deletes it once handled', async () => {
    await messageQueue().send('verification', [{ id: 'm', body: { tag: 'plain' } }]);
    await runtime.settle();

    const [delivery] = deliveriesOf('plain');
    expect(delivery.receiveCount).toBe(1);
    expect(delivery.record).toMatchObject({
      body: '{"tag":"plain"}',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d{13}$/),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d{13}$/),
      },
      messageAttributes: {},
      md5OfBody: expect.stringMatching(/^[0-9a-f]{32}$/),
      eventSource: 'aws:sqs',
      eventSourceARN: runtime.queues.queue('verification').arn,
      awsRegion: 'us-east-1',
    });
    expect(runtime.queues.queue('verification').size).toBe(0);
  });

  it('brings a failed message back after the (compressed) visibility timeout until it succeeds', async () => {
    const sent = Date.now();
    await runtime.queues.send('verification', [{ id: 'r', body: { tag: 'retry', failTimes: 2 } }]);
    await runtime.settle();

    expect(deliveriesOf('retry').map((d) => d.receiveCount)).toEqual([1, 2, 3]);
    // 180 s × 1/1800: each retry ~100 ms later, not three minutes.
    const visibilityMs =
      QUEUE_SETTINGS.verification.visibilityTimeoutSeconds * 1000 * (FAST_TIMINGS.queueTimeScale ?? 0);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(2 * visibilityMs - 10);
    expect(runtime.queues.deadLetterQueue('verification').size).toBe(0);
  });

  it('moves a message that keeps failing to the dead-letter queue after maxReceiveCount receives', async () => {
    await runtime.queues.send('verification', [{ id: 'p', body: { tag: 'poison', fail: 'always' } }]);
    await runtime.settle();

    const { maxReceiveCount } = QUEUE_SETTINGS.verification;
    expect(deliveriesOf('poison')).toHaveLength(maxReceiveCount);
    expect(runtime.queues.queue('verification').size).toBe(0);
    const [dead] = runtime.queues.deadLetterQueue('verification').contents();
    expect(JSON.parse(dead.body)).toEqual({ tag: 'poison', fail: 'always' });
    expect(dead).toMatchObject({
      receiveCount: maxReceiveCount,
      deadLetterQueueSourceArn: runtime.queues.queue('verification').arn,
    });
    expect(logged).toContainEqual({
      level: 'error',
      // …and how to redrive it (test/integration/local/dead-letters/endpoints.test.ts).
      message: expect.stringMatching(/^message moved to the dead-letter queue VerificationDeadLetter; once the cause/),
    });
  });

  it('holds messages of a queue without a consumer, and settles anyway', async () => {
    await runtime.queues.send('webhookDeliveries', [{ id: 'w', body: { tag: 'held' }, delaySeconds: 5 }]);
    await runtime.settle();
    expect(runtime.queues.queue('webhookDeliveries').bodies()).toEqual([{ tag: 'held' }]);
  });
});

describe('local outbox (the notifier port)', () => {
  it('writes an email a handler sends as a text file and keeps it for tests', async () => {
    const email = {
      to: 'jane@example.com',
      subject: 'Deposit on its way',
      text: 'Hello Jane,\n\nA deposit is on its way.',
    };
    await runtime.queues.send('verification', [{ id: 'e', body: { tag: 'email', email } }]);
    await runtime.settle();

    const [sent] = runtime.outbox.messages;
    expect(sent).toMatchObject(email);
    expect(sent.path.startsWith(join(outboxDir, ''))).toBe(true);
    expect(runtime.outbox.dir).toBe(outboxDir);
    const file = await readFile(sent.path, 'utf8');
    expect(file).toContain('To: jane@example.com\nSubject: Deposit on its way\nDate: ');
    expect(file.endsWith('\n\nHello Jane,\n\nA deposit is on its way.\n')).toBe(true);
  });
});

describe('schedules', () => {
  it('run on their local interval, on demand, and never overlap', async () => {
    await vi.waitFor(() => expect(store.scheduleRuns.length).toBeGreaterThanOrEqual(1), {
      timeout: 2_000,
      interval: 20,
    });
    const [first, second] = (await Promise.all([runtime.runSchedule('Tick'), runtime.runSchedule('Tick')])) as {
      run: number;
    }[];
    expect(second.run).toBeGreaterThan(first.run);
    expect(store.scheduleMostConcurrent).toBe(1);
    expect(store.scheduleRuns[0]).toMatchObject({
      consumer: 'Tick',
      event: { 'detail-type': 'Scheduled Event', source: 'aws.events' },
    });
    await expect(runtime.runSchedule('Nope')).rejects.toThrow(/no schedule consumer Nope/);
  });
});

describe('stop', () => {
  it('takes the local queue and outbox away from the handler ports', async () => {
    expect(messageQueue()).toBe(runtime.queues);
    expect(notifier()).toBe(runtime.outbox);
    await runtime.stop();
    expect(messageQueue()).not.toBe(runtime.queues);
    expect(notifier()).not.toBe(runtime.outbox);
  });
});
