import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';
import type { LocalRuntime } from '#lib/local/runtime';
import { REPO_ROOT } from '#lib/repo-root';
import { ENV } from '#shared/config';
import { screeningListings } from '#shared/db/screening/index';
import { startTestRuntime } from '#test/integration/harness';

/**
 * docs/local.md: `npm start` loads the lists of SCREENING_LISTS_DIR (the sandbox lists by
 * default) through the refresh, so a restart on a kept database writes nothing when the
 * folder did not change, and the ListsRefresh schedule re-reads the same folder.
 */
const tableName = `test-${randomUUID()}`;
let runtime: LocalRuntime | undefined;
afterAll(() => runtime?.stop());

describe('the screening lists of the local runtime', () => {
  it('are loaded at start, and a restart with the same folder writes nothing', async () => {
    runtime = await startTestRuntime({ tableName, consumers: [] });
    expect(await screeningListings().version()).toBe(1);
    expect(await screeningListings().all('sanctions')).toHaveLength(4);
    await runtime.stop();

    runtime = await startTestRuntime({ tableName, consumers: [] });
    expect(await screeningListings().version()).toBe(1);
    expect((await screeningListings().lastRefresh())?.counts).toEqual({ SDN: 4, ALERTS: 2 });
  });

  it('are refreshed from the same folder by the ListsRefresh schedule', async () => {
    await runtime?.stop();
    runtime = await startTestRuntime({ tableName });
    expect(process.env[ENV.screeningListsDir]).toBe(resolve(REPO_ROOT, SANDBOX_LISTS_DIR));
    expect(await runtime.runSchedule('ListsRefresh')).toEqual({ put: 0, removed: 0, counts: { SDN: 4, ALERTS: 2 } });
    expect(await screeningListings().version()).toBe(1);
    await runtime.stop();
    expect(process.env[ENV.screeningListsDir]).toBeUndefined();
  });

  it('are none, and the schedule has no folder to read, with screeningLists: false', async () => {
    await runtime?.stop();
    runtime = await startTestRuntime({ consumers: [], screeningLists: false });
    expect(process.env[ENV.screeningListsDir]).toBeUndefined();
  });
});
