import { describe, expect, it } from 'vitest';
import { useScreeningRuntime } from './support';

/**
 * OFAC's real files loaded as published into the local runtime (`screeningLists`, as
 * `SCREENING_LISTS_DIR` does for `npm start`), then persons created through the API the
 * ways partners write names: each is caught by identification (docs/api.md#screening).
 */
const { identified } = useScreeningRuntime('tenant-ofac', { screeningLists: 'test/fixtures/ofac' });

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
