import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';
import type { LocalRuntime } from '#lib/local/runtime';
import { ENV } from '#shared/config';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';

/**
 * Screening fails closed (docs/decisions.md#screening): on a table whose sanctions list was
 * never loaded, a person who would be verified stays `created`, their identification
 * dead-lettered, until the lists are loaded (here by the ListsRefresh schedule, from
 * SCREENING_LISTS_DIR) and the dead-letter queue redriven.
 */
const TENANT = 'tenant-lists-unavailable';
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  runtime = await startTestRuntime({ screeningLists: false, log: () => {} });
  call = api(runtime, await runtime.mintToken(TENANT));
});
afterAll(async () => {
  delete process.env[ENV.screeningListsDir];
  await runtime?.stop();
});

describe('identification with no sanctions list loaded', () => {
  it('never verifies: the person stays created until the lists are loaded and the message redriven', async () => {
    const created = await call.post('/persons', personBody({}));
    expect(created.status).toBe(200);
    const id = created.body.person.id as string;
    await runtime.settle(20_000);

    expect((await call.get(`/persons/${id}`)).body.person.status).toBe('created');
    const deadLetters = runtime.queues.deadLetterQueue('identification');
    expect(deadLetters.bodies()).toEqual([expect.objectContaining({ tenant: TENANT, id })]);

    process.env[ENV.screeningListsDir] = SANDBOX_LISTS_DIR;
    expect(await runtime.runSchedule('ListsRefresh')).toMatchObject({ counts: { SDN: 4, ALERTS: 2 } });
    expect(runtime.queues.redrive('identification')).toBe(1);
    await runtime.settle(20_000);

    expect((await call.get(`/persons/${id}`)).body.person.status).toBe('verified');
  });
});
