// Banking days as the ACH network counts them: Monday to Friday, in UTC, and, where a
// deadline depends on the Federal Reserve settling entries (an ACH return window), without
// its holidays. The partner-facing estimate (`estimated_verification_date`) counts business
// days, Monday to Friday, as the contract says.

const isWeekday = (day: Date): boolean => day.getUTCDay() !== 0 && day.getUTCDay() !== 6;

/** Midnight (UTC) starting the `count`-th banking day after the day of `from` (0: that day's midnight). */
export function addBankingDays(from: Date, count: number, isBankingDay: (day: Date) => boolean = isWeekday): Date {
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  for (let left = count; left > 0; ) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (isBankingDay(day)) left -= 1;
  }
  return day;
}

/** As `addBankingDays`, skipping the Federal Reserve's holidays too: the days ACH entries settle on. */
export const addSettlementDays = (from: Date, count: number): Date => addBankingDays(from, count, isSettlementDay);

const isSettlementDay = (day: Date): boolean =>
  isWeekday(day) && !federalReserveHolidays(day.getUTCFullYear()).has(isoDay(day));

const isoDay = (day: Date): string => day.toISOString().slice(0, 10);

/**
 * The Federal Reserve's holidays of a year (federalreserve.gov, "Holidays Observed"): a
 * holiday on a Sunday is observed the Monday after; one on a Saturday is not moved (the
 * Reserve Banks are open the Friday before).
 */
export function federalReserveHolidays(year: number): ReadonlySet<string> {
  const fixed = (month: number, date: number) => {
    const day = new Date(Date.UTC(year, month - 1, date));
    if (day.getUTCDay() === 0) day.setUTCDate(date + 1);
    return day;
  };
  /** The `n`-th `weekday` (0 Sunday … 6 Saturday) of a month; `n` -1: the last. */
  const nth = (month: number, weekday: number, n: number) => {
    if (n === -1) {
      const last = new Date(Date.UTC(year, month, 0));
      last.setUTCDate(last.getUTCDate() - ((last.getUTCDay() - weekday + 7) % 7));
      return last;
    }
    const first = new Date(Date.UTC(year, month - 1, 1));
    first.setUTCDate(1 + ((weekday - first.getUTCDay() + 7) % 7) + (n - 1) * 7);
    return first;
  };
  return new Set(
    [
      fixed(1, 1), // New Year's Day
      nth(1, 1, 3), // Birthday of Martin Luther King, Jr.
      nth(2, 1, 3), // Washington's Birthday
      nth(5, 1, -1), // Memorial Day
      fixed(6, 19), // Juneteenth National Independence Day
      fixed(7, 4), // Independence Day
      nth(9, 1, 1), // Labor Day
      nth(10, 1, 2), // Columbus Day
      fixed(11, 11), // Veterans Day
      nth(11, 4, 4), // Thanksgiving Day
      fixed(12, 25), // Christmas Day
    ].map(isoDay),
  );
}
