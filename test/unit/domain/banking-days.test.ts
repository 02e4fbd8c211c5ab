import { describe, expect, it } from 'vitest';
import { returnWindowEnd } from '#domain/ach-returns';
import { addBankingDays, addSettlementDays, federalReserveHolidays } from '#domain/banking-days';

const at = (iso: string) => new Date(iso);

describe('banking days (Monday to Friday, UTC)', () => {
  it('counts whole days from the start of the given day', () => {
    expect(addBankingDays(at('2026-11-17T15:30:00Z'), 1)).toEqual(at('2026-11-18T00:00:00Z'));
    expect(addBankingDays(at('2026-11-17T15:30:00Z'), 0)).toEqual(at('2026-11-17T00:00:00Z'));
  });

  it('skips Saturday and Sunday', () => {
    expect(addBankingDays(at('2026-11-20T10:00:00Z'), 1)).toEqual(at('2026-11-23T00:00:00Z'));
    expect(addBankingDays(at('2026-11-21T10:00:00Z'), 1)).toEqual(at('2026-11-23T00:00:00Z'));
    expect(addBankingDays(at('2026-11-19T10:00:00Z'), 3)).toEqual(at('2026-11-24T00:00:00Z'));
  });
});

describe('Federal Reserve holidays (federalreserve.gov, Holidays Observed)', () => {
  it('gives the eleven holidays of 2026, Independence Day on a Saturday not moved', () => {
    expect([...federalReserveHolidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ]);
  });

  it('moves a holiday on a Sunday to the Monday after (Juneteenth 2022, New Year 2023)', () => {
    expect(federalReserveHolidays(2022).has('2022-06-20')).toBe(true);
    expect(federalReserveHolidays(2023).has('2023-01-02')).toBe(true);
  });

  it('settlement days skip the holidays, business days do not', () => {
    // Wednesday before Thanksgiving 2026: Thursday is a holiday.
    expect(addSettlementDays(at('2026-11-25T10:00:00Z'), 1)).toEqual(at('2026-11-27T00:00:00Z'));
    expect(addBankingDays(at('2026-11-25T10:00:00Z'), 1)).toEqual(at('2026-11-26T00:00:00Z'));
  });

  it('a return window over a holiday runs a day longer', () => {
    // Sent Wednesday 2026-11-25: Friday 27, Monday 30, Tuesday 1 December; ends midnight after it.
    expect(returnWindowEnd(at('2026-11-25T10:00:00Z'))).toEqual(at('2026-12-02T00:00:00Z'));
  });
});
