import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { settle } from '#lib/local/pipeline/local-pipeline';
import { Activity, type PipelineWorker } from '#lib/local/pipeline/pipeline-worker';

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

  it('rejects once the timeout passes with no work done, saying what is busy', async () => {
    await expect(settle([fakeWorker('poller').worker], new Activity(), 50)).rejects.toThrow(
      /did no work for 50 ms .*poller busy/,
    );
  });

  it('waits past the timeout for a pipeline that keeps doing work, as a busy machine’s does', async () => {
    const activity = new Activity();
    const a = fakeWorker('a');
    const progressing = setInterval(() => activity.touch(), 10);
    const done = settle([a.worker], activity, 300);
    await sleep(1_200); // four timeouts, in each of which batches finished
    clearInterval(progressing);
    a.free();
    await expect(done).resolves.toBeUndefined();
  });

  it('rejects a pipeline that did work and then stopped doing any', async () => {
    const activity = new Activity();
    const progressing = setInterval(() => activity.touch(), 10);
    setTimeout(() => clearInterval(progressing), 100);
    await expect(settle([fakeWorker('stuck').worker], activity, 50)).rejects.toThrow(/stuck busy/);
  });

  it('waits past the timeout while an invocation is in flight, as one slowed by a busy machine’s table is', async () => {
    // A batch whose table calls time out and are retried by the SDK finishes nothing for
    // longer than the budget; it ends by its function's timeout at the latest.
    const activity = new Activity();
    const a = fakeWorker('a');
    const invocation = activity.during(() => sleep(200));
    const done = settle([a.worker], activity, 50);
    await invocation;
    a.free();
    await expect(done).resolves.toBeUndefined();
  });

  it('counts an invocation as in flight until it ends, failed or not', async () => {
    const activity = new Activity();
    const failing = activity.during(() => Promise.reject(new Error('bank unreachable')));
    expect(activity.running).toBe(1);
    await expect(failing).rejects.toThrow('bank unreachable');
    expect(activity.running).toBe(0);
    expect(activity.count).toBe(1);
  });
});
