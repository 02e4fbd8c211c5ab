import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { tenants } from '#shared/db/tenants/index';
import { api, startTestRuntime } from '#test/integration/harness';
import { stopClock } from '#test/support/stopped-clock';

/** The token bucket on DynamoDB Local, over HTTP: one tenant's burst never touches another's. */
let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ consumers: [], screeningLists: false });
  await tenants().putSettings('tenant-slow', { rate_per_second: 0.5, burst: 3 });
});
afterAll(() => runtime?.stop());

describe('per-tenant rate limit', () => {
  it('lets a tenant send its burst, then answers 429 with Retry-After; another tenant is unaffected', async () => {
    const slow = api(runtime, await runtime.mintToken('tenant-slow'));
    const other = api(runtime, await runtime.mintToken('tenant-other'));
    // At one instant: at 0.5 a second, a token refills in 2 s, which four requests may take on a loaded machine.
    const clock = stopClock();
    const answers = [];
    try {
      for (let n = 0; n < 4; n++) answers.push(await slow.get('/persons'));
    } finally {
      clock.restart();
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3]?.headers['retry-after']).toBe('2');
    expect(answers[3]?.body.error_code).toBe('too_many_requests');
    expect((await other.get('/persons')).status).toBe(200);
  });

  it('counts concurrent requests exactly: a burst of 3 lets 3 of 8 simultaneous requests through', async () => {
    await tenants().putSettings('tenant-rush', { rate_per_second: 0.01, burst: 3 });
    const rush = api(runtime, await runtime.mintToken('tenant-rush'));
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => rush.get('/persons')))).map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });
});
