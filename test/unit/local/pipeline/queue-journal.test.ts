import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalQueue } from '#lib/local/pipeline/local-queue';
import { QueueJournal } from '#lib/local/pipeline/queue-journal';

/**
 * The local queues with DATA_DIR: what a queue held when the process died (no close, no
 * flush: a SIGKILL) is what it holds when a new process opens the same journal, with the
 * SQS rules carrying on across the restart.
 */
let dir: string;
let path: string;
let clock: number;
const journals: QueueJournal[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'queue-journal-'));
  path = join(dir, 'queues.jsonl');
  clock = 1_000_000;
});
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A queue and its dead-letter queue on the journal, as one process start opens them. */
function start(maxReceiveCount = 2) {
  const journal = QueueJournal.open(path, () => {});
  journals.push(journal);
  const common = { region: 'us-east-1', now: () => clock, journal };
  const deadLetterQueue = new LocalQueue('JobsDeadLetter', { ...common, visibilityTimeoutMs: 0 });
  const queue = new LocalQueue('Jobs', {
    ...common,
    visibilityTimeoutMs: 1_000,
    redrive: { deadLetterQueue, maxReceiveCount },
  });
  return { queue, deadLetterQueue };
}

describe('local queues kept in a journal across a crash', () => {
  it('restores sent messages in arrival order, a delayed one still hidden until its time', () => {
    const before = start();
    const first = before.queue.send('{"n":1}');
    before.queue.send('{"n":2}', 500);

    const after = start();
    expect(after.queue.contents()).toEqual(before.queue.contents());
    expect(after.queue.receive(10)).toEqual([expect.objectContaining({ messageId: first.messageId, receiveCount: 1 })]);
    clock += 500;
    expect(after.queue.receive(10).map((m) => m.body)).toEqual(['{"n":2}']);
  });

  it('keeps a received message hidden for the rest of its visibility timeout, with its receive count; a deleted one stays gone', () => {
    const before = start();
    before.queue.send('kept');
    before.queue.send('done');
    const [kept, done] = before.queue.receive(10);
    before.queue.delete(done!.receiptHandle);

    const after = start();
    expect(after.queue.receive(10)).toEqual([]);
    clock += 1_000;
    expect(after.queue.receive(10)).toEqual([
      expect.objectContaining({ messageId: kept!.messageId, body: 'kept', receiveCount: 2 }),
    ]);
  });

  it('counts receives before and after the restart toward maxReceiveCount, and keeps the dead-letter queue', () => {
    const before = start(2);
    const sent = before.queue.send('poison');
    before.queue.receive(1);

    const middle = start(2);
    clock += 1_000;
    expect(middle.queue.receive(1)).toEqual([expect.objectContaining({ receiveCount: 2 })]);
    clock += 1_000;
    expect(middle.queue.receive(1)).toEqual([]);

    const after = start(2);
    expect(after.queue.size).toBe(0);
    expect(after.deadLetterQueue.contents()).toEqual([
      expect.objectContaining({
        messageId: sent.messageId,
        receiveCount: 2,
        deadLetterQueueSourceArn: after.queue.arn,
      }),
    ]);
  });

  it('records a redrive: after a restart the message waits in its source queue as a new message, as SQS moves it', () => {
    const before = start(1);
    const sent = before.queue.send('fixed');
    before.queue.receive(1);
    clock += 1_000;
    before.queue.receive(1);
    expect(before.deadLetterQueue.redrive([before.queue])).toBe(1);

    const after = start(1);
    expect(after.deadLetterQueue.size).toBe(0);
    const [redriven] = after.queue.receive(1);
    expect(redriven).toMatchObject({ body: 'fixed', receiveCount: 1 });
    expect(redriven!.messageId).not.toBe(sent.messageId);
  });

  it('drops a half-written last line (a crash mid-append) and keeps every change before it', () => {
    const before = start();
    before.queue.send('whole');
    appendFileSync(path, '[{"queue":"Jobs","put":[{"messageId":"torn');

    expect(
      start()
        .queue.contents()
        .map((m) => m.body),
    ).toEqual(['whole']);
  });

  it('compacts the journal to what is left when it is opened', () => {
    const before = start();
    for (let n = 0; n < 20; n++) before.queue.send(String(n));
    for (const message of before.queue.receive(10)) before.queue.delete(message.receiptHandle);

    start();
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(1);
    expect(
      start()
        .queue.contents()
        .map((m) => m.body),
    ).toEqual(['10', '11', '12', '13', '14', '15', '16', '17', '18', '19']);
  });

  it('writes one line (one fdatasync) per batch: a batch send, a receive, a batch delete', () => {
    const { queue } = start();
    queue.sendAll(Array.from({ length: 10 }, (_, n) => ({ body: String(n) })));
    const received = queue.receive(10);
    expect(queue.deleteAll([...received.map((m) => m.receiptHandle), 'stale-handle'])).toBe(10);

    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    expect(start().queue.size).toBe(0);
  });

  it('refuses a change it cannot record, and the queue does not change', () => {
    const { queue } = start();
    journals[0]!.close();
    expect(() => queue.send('lost')).toThrow(/closed/);
    expect(queue.size).toBe(0);
  });
});
