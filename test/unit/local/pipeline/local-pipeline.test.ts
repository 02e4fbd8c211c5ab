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

  it('rejects after the timeout, saying what is busy', async () => {
    await expect(settle([fakeWorker('poller').worker], new Activity(), 50)).rejects.toThrow(/poller busy/);
  });
});
