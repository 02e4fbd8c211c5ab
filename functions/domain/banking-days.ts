// Banking days as the ACH network counts them: Monday to Friday, in UTC. Federal Reserve
// holidays are not known here; whoever counts on a deadline adds a margin for one.

const isBankingDay = (day: Date): boolean => day.getUTCDay() !== 0 && day.getUTCDay() !== 6;

/** Midnight (UTC) starting the `count`-th banking day after the day of `from` (0: that day's midnight). */
export function addBankingDays(from: Date, count: number): Date {
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  for (let left = count; left > 0; ) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (isBankingDay(day)) left -= 1;
  }
  return day;
}
