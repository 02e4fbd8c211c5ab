import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Availability } from '#lib/local/availability';
import { settle } from '#lib/local/pipeline/local-pipeline';
import { Activity, type PipelineWorker } from '#lib/local/pipeline/pipeline-worker';
import { asAsyncInvocation, LAMBDA_ASYNC_RETRIES, ScheduleRunner } from '#lib/local/pipeline/schedule-runner';
import { fakeWorkerContext } from './fake-worker-context';

const stopLater: PipelineWorker[] = [];
afterEach(async () => {
  for (const worker of stopLater.splice(0)) await worker.stop();
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
        table: { actions: [] },
        timeoutSeconds: 5,
      },
      { activity: new Activity(), region: 'us-east-1' },
    );
    runner.start(
      fakeWorkerContext(async (event) => {
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

  it('skips its ticks while the table is down, and ticks again once it is up', async () => {
    const availability = new Availability();
    availability.markDown('DynamoDB Local exited');
    let runs = 0;
    const runner = new ScheduleRunner(
      {
        id: 'Hourly',
        handler: 'unused.ts',
        source: { kind: 'schedule', cron: { minute: '0', hour: '*' }, localEveryMs: 10 },
        table: { actions: [] },
        timeoutSeconds: 5,
      },
      { activity: new Activity(), region: 'us-east-1' },
    );
    runner.start(fakeWorkerContext(() => ++runs, availability));
    stopLater.push(runner);
    await sleep(100);
    expect(runs).toBe(0);

    availability.markUp();
    await sleep(100);
    expect(runs).toBeGreaterThan(0);
  });

  it('retries a timed run that fails, as Lambda retries an asynchronous invocation twice, and calls it failed only after the third try', async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);

    let tries = 0;
    const flaky = () => {
      if (++tries === 1) return Promise.reject(new Error('socket hang up'));
      return Promise.resolve(tries);
    };
    await expect(asAsyncInvocation(flaky, wait)).resolves.toBe(2);
    expect(waits).toHaveLength(1);

    let failing = 0;
    const broken = () => {
      failing++;
      return Promise.reject(new Error('table gone'));
    };
    await expect(asAsyncInvocation(broken, wait)).rejects.toThrow('table gone');
    expect(failing).toBe(1 + LAMBDA_ASYNC_RETRIES);
    expect(LAMBDA_ASYNC_RETRIES).toBe(2);
  });

  it('is busy while it waits to try a failed timed run again, so settle() waits for the next try', async () => {
    const activity = new Activity();
    let tries = 0;
    let firstTried = () => {};
    const firstTry = new Promise<void>((resolve) => {
      firstTried = resolve;
    });
    const runner = new ScheduleRunner(
      {
        id: 'Nightly',
        handler: 'unused.ts',
        // Ticks far enough apart that settle() finds a quiet moment between them.
        source: { kind: 'schedule', cron: { minute: '0', hour: '3' }, localEveryMs: 100 },
        table: { actions: [] },
        timeoutSeconds: 5,
      },
      { activity, region: 'us-east-1' },
    );
    runner.start(
      fakeWorkerContext(async () => {
        if (++tries > 1) return tries;
        firstTried();
        throw new Error('socket hang up');
      }),
    );
    stopLater.push(runner);

    await firstTry;
    // The failure reaches the runner (promise callbacks only), which now waits a second to try again.
    await new Promise((resolve) => setImmediate(resolve));
    expect(tries).toBe(1);
    expect(runner.busy()).toMatch(/^schedule Nightly /);

    await settle([runner], activity, 10_000);
    expect(tries).toBeGreaterThanOrEqual(2);
  });
});
