import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LocalQueue } from '#lib/local/pipeline/local-queue';
import { LocalQueues } from '#lib/local/pipeline/local-queues';
import { QUEUE_SETTINGS } from '#lib/service/index';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function queueWithDeadLetters(clock: ReturnType<typeof fakeClock>, maxReceiveCount = 3) {
  const deadLetterQueue = new LocalQueue('JobsDeadLetter', {
    visibilityTimeoutMs: 0,
    region: 'us-east-1',
    now: clock.now,
  });
  const queue = new LocalQueue('Jobs', {
    visibilityTimeoutMs: 1_000,
    redrive: { deadLetterQueue, maxReceiveCount },
    region: 'us-east-1',
    now: clock.now,
  });
  return { queue, deadLetterQueue };
}

describe('local queue visibility and dead-lettering (SQS rules)', () => {
  it('hides a received message for the visibility timeout, then shows it again with a higher receive count', () => {
    const clock = fakeClock();
    const { queue } = queueWithDeadLetters(clock);
    const sent = queue.send('{"n":1}');
    const [first] = queue.receive(10);
    expect(first).toMatchObject({ messageId: sent.messageId, receiveCount: 1, firstReceivedAt: clock.now() });
    expect(queue.receive(10)).toEqual([]);
    clock.advance(999);
    expect(queue.receive(10)).toEqual([]);
    clock.advance(1);
    const [again] = queue.receive(10);
    expect(again).toMatchObject({ messageId: sent.messageId, receiveCount: 2, firstReceivedAt: first.firstReceivedAt });
    expect(again.receiptHandle).not.toBe(first.receiptHandle);
  });

  it('deletes by the latest receipt handle only', () => {
    const clock = fakeClock();
    const { queue } = queueWithDeadLetters(clock);
    queue.send('x');
    const [first] = queue.receive(1);
    clock.advance(1_000);
    const [second] = queue.receive(1);
    expect(queue.delete(first.receiptHandle!)).toBe(false);
    expect(queue.delete(second.receiptHandle!)).toBe(true);
    expect(queue.size).toBe(0);
  });

  it('gives at most max messages, oldest first, and skips delayed ones until their time', () => {
    const clock = fakeClock();
    const { queue } = queueWithDeadLetters(clock);
    queue.send('late', 500);
    for (const body of ['a', 'b', 'c']) queue.send(body);
    expect(queue.receive(2).map((m) => m.body)).toEqual(['a', 'b']);
    expect(queue.receive(10).map((m) => m.body)).toEqual(['c']);
    expect(queue.nextVisibleAt()).toBe(clock.now() + 500);
    clock.advance(500);
    expect(queue.receive(10).map((m) => m.body)).toEqual(['late']);
  });

  it('moves a message received maxReceiveCount times to the dead-letter queue at its next receive', () => {
    const clock = fakeClock();
    const { queue, deadLetterQueue } = queueWithDeadLetters(clock, 3);
    const sent = queue.send('poison');
    for (let receive = 1; receive <= 3; receive++) {
      expect(queue.receive(10)).toHaveLength(1);
      clock.advance(1_000);
    }
    expect(queue.receive(10)).toEqual([]);
    expect(queue.size).toBe(0);
    expect(deadLetterQueue.contents()).toEqual([
      expect.objectContaining({
        messageId: sent.messageId,
        body: 'poison',
        receiveCount: 3,
        deadLetterQueueSourceArn: queue.arn,
      }),
    ]);
  });

  it('carries SQS identity: an ARN and the MD5 of the body', () => {
    const clock = fakeClock();
    const { queue } = queueWithDeadLetters(clock);
    expect(queue.arn).toBe('arn:aws:sqs:us-east-1:123456789012:Jobs');
    expect(queue.send('hello').md5OfBody).toBe(createHash('md5').update('hello').digest('hex'));
  });

  it('tells listeners about every new message', () => {
    const { queue } = queueWithDeadLetters(fakeClock());
    let told = 0;
    const unsubscribe = queue.onMessage(() => told++);
    queue.send('a');
    unsubscribe();
    queue.send('b');
    expect(told).toBe(1);
  });
});

describe('the service queues behind the MessageQueue port', () => {
  it('has every queue with a dead-letter queue, visibility and delays scaled by timeScale', async () => {
    const clock = fakeClock();
    const queues = new LocalQueues({ timeScale: 1 / 100, region: 'us-east-1', now: clock.now });
    await queues.send('verification', [
      { id: 'a', body: { tenant: 't', id: 'a' } },
      { id: 'b', body: { tenant: 't', id: 'b' }, delaySeconds: 10 },
    ]);
    const verification = queues.queue('verification');
    expect(verification.bodies()).toEqual([
      { tenant: 't', id: 'a' },
      { tenant: 't', id: 'b' },
    ]);
    const [received] = verification.receive(10);
    expect(received.body).toBe('{"tenant":"t","id":"a"}');
    expect(received.visibleAt - clock.now()).toBe(QUEUE_SETTINGS.verification.visibilityTimeoutSeconds * 10);
    expect(verification.contents()[1].visibleAt - clock.now()).toBe(100);
    expect(queues.deadLetterQueue('verification').size).toBe(0);
    expect(queues.queue('webhookDeliveries').name).toBe(QUEUE_SETTINGS.webhookDeliveries.name);
  });

  it('refuses what SQS refuses, sending none of the call', async () => {
    const queues = new LocalQueues({ timeScale: 1, region: 'us-east-1' });
    const tooLate = [
      { id: 'a', body: 1 },
      { id: 'b', body: 2, delaySeconds: 901 },
    ];
    await expect(queues.send('verification', tooLate)).rejects.toThrow(/delaySeconds/);
    await expect(
      queues.send('verification', [
        { id: 'a', body: 1 },
        { id: 'a', body: 2 },
      ]),
    ).rejects.toThrow(/distinct/);
    await expect(queues.send('verification', [{ id: 'a', body: 'x'.repeat(1_048_577) }])).rejects.toThrow(/too large/);
    expect(queues.queue('verification').size).toBe(0);
  });
});
