import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { api, startTestRuntime } from '../harness';
import { personBody } from '../persons/support';

/**
 * OFAC's real files loaded as published into the local runtime (`screeningLists`, as
 * `SCREENING_LISTS_DIR` does for `npm start`), then persons created through the API the
 * ways partners write names: each is caught by identification (docs/api.md#screening).
 */
let runtime: LocalRuntime;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  process.env.IDENTIFICATION_RETRY_DELAY_SECONDS = '60';
  runtime = await startTestRuntime({ screeningLists: 'test/fixtures/ofac' });
  call = api(runtime, await runtime.mintToken('tenant-ofac'));
}, 600_000);
afterAll(() => runtime?.stop());

async function identified(over: Record<string, unknown>) {
  const response = await call.post('/persons', personBody(over));
  expect(response.status).toBe(200);
  await runtime.settle();
  const person = (await call.get(`/persons/${response.body.person.id}`)).body.person;
  return {
    status: person.status,
    reasons: (person.status_reasons ?? []).map((r: { reason_code: string }) => r.reason_code),
  };
}

describe('OFAC’s SDN list loaded as published, persons screened through the API', () => {
  it.each([
    [
      'without the listed middle name ("SEMENOVA, Olena Yurevna")',
      { first_name: 'Olena', last_name: 'Semenova', date_of_birth: '1978-12-06' },
    ],
    [
      'in another romanisation ("SURI, Muhammad", born 1946)',
      { first_name: 'Mohammad', last_name: 'Suri', date_of_birth: '1946-07-01' },
    ],
    [
      'with one slip in the surname ("KELMENDI, Naser")',
      { first_name: 'Naser', last_name: 'Kelmndi', date_of_birth: '1957-02-15' },
    ],
    [
      'spaced otherwise ("AL-TIKRITI, Saddam Hussein")',
      { first_name: 'Saddam', last_name: 'Al Tikriti', date_of_birth: '1937-04-28' },
    ],
    [
      'with the first of two surnames alone ("ARAUJO MONZON, Elvira")',
      { first_name: 'Elvira', last_name: 'Araujo', date_of_birth: '1961-01-25' },
    ],
  ])('a listed person written %s is rejected: matched_watchlist', { timeout: 120_000 }, async (_, over) => {
    expect(await identified(over)).toEqual({ status: 'rejected', reasons: ['matched_watchlist'] });
  });

  it('a common name with its date of birth is verified', { timeout: 120_000 }, async () => {
    expect(await identified({ first_name: 'James', last_name: 'Smith' })).toEqual({ status: 'verified', reasons: [] });
  });
});
