import { parseAlertCsv, parseSdnCsv, type ScreeningEntry } from '#domain/screening';
import { screeningLists } from '#shared/db/screening/index';
import { now } from '#shared/dependencies';

/** How many entries are written at once: enough to load OFAC's ~7,000 individuals in a minute or two. */
const CONCURRENCY = 16;

/**
 * Writes a screening list file into the table: the sanctions list in OFAC's SDN CSV format
 * (`sdn.csv`, loaded unchanged), the alert list in the service's CSV (docs/sandbox.md#persons).
 * Each entry's stream record re-screens the verified persons of its name. One way in for
 * a deployed table and a local one alike.
 */
export async function loadScreeningList(list: ScreeningEntry['list'], csv: string): Promise<number> {
  const entries = list === 'sanctions' ? parseSdnCsv(csv) : parseAlertCsv(csv);
  const at = now();
  for (let i = 0; i < entries.length; i += CONCURRENCY) {
    await Promise.all(entries.slice(i, i + CONCURRENCY).map((entry) => screeningLists().put(entry, at)));
  }
  return entries.length;
}

/** The sandbox lists that ship with the project (fictional people only). */
export const SANDBOX_LISTS = { sanctions: 'data/screening/sdn.csv', alerts: 'data/screening/alerts.csv' } as const;
