import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ListFileError } from '#domain/csv';
import type { ListedPerson, ScreeningList } from '#domain/screening-match';
import { ListsRefreshRefused, refreshLists } from '#functions/screening/refresh-lists';
import type { ListingRepository } from '#shared/db/screening/index';
import type { ListingRef, ListsRefresh } from '#shared/db/screening/listings';
import { setDependencies } from '#shared/dependencies';
import { type ListServer, startListServer } from '#test/support/list-server';
import { stopClock } from '#test/support/stopped-clock';

// The refresh's decisions on a repository that keeps the listings in memory and notes every
// write (the same refresh on DynamoDB Local and OFAC's real files:
// test/integration/screening/lists-refresh.test.ts).

class ListingsInMemory {
  readonly listings = new Map<string, ListedPerson>();
  readonly writes: string[] = [];
  refresh?: ListsRefresh;

  async put(listing: ListedPerson) {
    this.writes.push(`put ${listing.entryId}`);
    this.listings.set(listing.entryId, listing);
  }
  async remove(ref: ListingRef) {
    this.writes.push(`remove ${ref.entryId}`);
    this.listings.delete(ref.entryId);
  }
  async all(list: ScreeningList) {
    return [...this.listings.values()].filter((listing) => listing.list === list);
  }
  async recordChange(changed: readonly ListingRef[]) {
    this.writes.push(`change of ${changed.length}`);
    return 'change-1';
  }
  async lastRefresh() {
    return this.refresh;
  }
  async recordRefresh(refresh: Omit<ListsRefresh, 'refreshedAt'>, now: Date) {
    this.refresh = { ...refresh, refreshedAt: now.toISOString() };
  }
}

let table: ListingsInMemory;
beforeEach(() => {
  table = new ListingsInMemory();
  setDependencies({ screeningListings: table as unknown as ListingRepository });
});
afterEach(() => setDependencies({ screeningListings: undefined }));

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lists-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const sdnRow = (entNum: number, name: string, dob = '01 Jan 1970') =>
  `${entNum},"${name}","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,"DOB ${dob}"\n`;
const SDN = sdnRow(1, 'DOE, Jane') + sdnRow(2, 'ROE, Richard') + sdnRow(3, 'POE, Paula');
const ALT = '1,7,"aka","DOE, Janet",-0-\n';

describe('refreshing the lists from a folder', () => {
  it('writes each listing with its aliases, then records the change once', async () => {
    const outcome = await refreshLists({ dir: await folder({ 'sdn.csv': SDN, 'alt.csv': ALT }) });
    expect(outcome).toEqual({ changeId: 'change-1', put: 3, removed: 0, counts: { SDN: 3 } });
    expect(table.writes).toEqual(['put SDN-1', 'put SDN-2', 'put SDN-3', 'change of 3']);
    expect(table.listings.get('SDN-1')?.names.map((n) => n.name)).toEqual(['DOE, Jane', 'DOE, Janet']);
  });

  it('writes nothing when the folder holds what the table holds (no change, no re-screen)', async () => {
    const dir = await folder({ 'sdn.csv': SDN, 'alt.csv': ALT });
    await refreshLists({ dir });
    table.writes.length = 0;
    expect(await refreshLists({ dir })).toEqual({ put: 0, removed: 0, counts: { SDN: 3 } });
    expect(table.writes).toEqual([]);
    expect(table.refresh?.counts).toEqual({ SDN: 3 });
  });

  it('writes only the listings added, changed (an alias, a date) or taken off', async () => {
    await refreshLists({ dir: await folder({ 'sdn.csv': SDN, 'alt.csv': ALT }) });
    table.writes.length = 0;
    const next = sdnRow(1, 'DOE, Jane') + sdnRow(2, 'ROE, Richard', '02 Feb 1971') + sdnRow(4, 'NEW, Nora');
    const outcome = await refreshLists({
      dir: await folder({ 'sdn.csv': next, 'alt.csv': '1,8,"aka","DOE, J.",-0-\n' }),
    });
    expect(outcome).toMatchObject({ put: 3, removed: 1 });
    expect(table.writes.sort()).toEqual(['change of 3', 'put SDN-1', 'put SDN-2', 'put SDN-4', 'remove SDN-3']);
  });

  it('never takes off a listing of a source the folder has no file for (the local entries, the alert list)', async () => {
    table.listings.set('LOCAL-1', { ...listing('LOCAL-1'), source: 'LOCAL' });
    table.listings.set('ALERTS-a', { ...listing('ALERTS-a'), list: 'alerts', source: 'ALERTS' });
    table.listings.set('CONS-9', { ...listing('CONS-9'), source: 'CONS' });
    await refreshLists({ dir: await folder({ 'sdn.csv': SDN }) });
    expect([...table.listings.keys()].sort()).toEqual(['ALERTS-a', 'CONS-9', 'LOCAL-1', 'SDN-1', 'SDN-2', 'SDN-3']);
  });

  it('writes nothing when one file is malformed, and names the file and the line', async () => {
    const refresh = refreshLists({ dir: await folder({ 'sdn.csv': SDN, 'alt.csv': `${ALT}1,8,"aka"\n` }) });
    await expect(refresh).rejects.toThrow(ListFileError);
    await expect(refresh).rejects.toThrow('alt.csv, line 2: expected 5 fields, found 3');
    expect(table.writes).toEqual([]);
  });

  it('refuses aliases without the list they belong to', async () => {
    await expect(refreshLists({ dir: await folder({ 'alt.csv': ALT }) })).rejects.toThrow(
      'alt.csv and add.csv need the sdn.csv they belong to',
    );
  });

  it('refuses a folder without any list file', async () => {
    await expect(refreshLists({ dir: await folder({}) })).rejects.toThrow(ListsRefreshRefused);
  });

  it('refuses a copy that would take off too many listings at once, unless forced', async () => {
    const many = Array.from({ length: 40 }, (_, n) => sdnRow(n + 1, `PERSON, Number${n + 1}`)).join('');
    await refreshLists({ dir: await folder({ 'sdn.csv': many }) });
    table.writes.length = 0;
    const fewer = await folder({ 'sdn.csv': many.split('\n').slice(0, 29).join('\n') });
    const refresh = refreshLists({ dir: fewer });
    await expect(refresh).rejects.toThrow(ListsRefreshRefused);
    await expect(refresh).rejects.toThrow(
      'SDN: 29 listed persons, 11 fewer than the 40 stored (at most 10 may go at once)',
    );
    expect(table.writes).toEqual([]);

    expect(await refreshLists({ dir: fewer }, { force: true })).toMatchObject({ removed: 11 });
  });

  it('never writes an empty list, even forced (an operator forces only the count and date checks)', async () => {
    await refreshLists({ dir: await folder({ 'sdn.csv': SDN }) });
    table.writes.length = 0;
    const refresh = refreshLists({ dir: await folder({ 'sdn.csv': '' }) }, { force: true });
    await expect(refresh).rejects.toThrow(ListsRefreshRefused);
    await expect(refresh).rejects.toThrow('SDN: no listed person');
    expect(table.writes).toEqual([]);
  });

  it('lets the alert list, the service’s own, be emptied', async () => {
    await refreshLists({ dir: await folder({ 'alerts.csv': 'id,name,date_of_birth\na1,Alex Alertlist,\n' }) });
    expect(await refreshLists({ dir: await folder({ 'alerts.csv': 'id,name,date_of_birth\n' }) })).toMatchObject({
      removed: 1,
      counts: { ALERTS: 0 },
    });
  });
});

describe('how far a list may shrink in 30 days', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const persons = (count: number) =>
    Array.from({ length: count }, (_, n) => sdnRow(n + 1, `PERSON, Number${n + 1}`)).join('');
  const copyOf = async (count: number) => ({ dir: await folder({ 'sdn.csv': persons(count) }) });
  let clock: ReturnType<typeof stopClock>;
  beforeEach(() => {
    clock = stopClock(new Date('2026-09-01T04:00:00.000Z'));
  });
  afterEach(() => clock.restart());

  it('refuses a list shrinking by just under 5 % a day once it is more than 5 % below its largest of the last 30 days', async () => {
    await refreshLists(await copyOf(1000));
    clock.advance(DAY);
    expect(await refreshLists(await copyOf(951))).toMatchObject({ removed: 49 }); // 4.9 %
    clock.advance(DAY);
    table.writes.length = 0;

    const refresh = refreshLists(await copyOf(905)); // 4.8 % of 951, 9.5 % of 1,000
    await expect(refresh).rejects.toThrow(ListsRefreshRefused);
    await expect(refresh).rejects.toThrow(
      'SDN: 905 listed persons, 95 fewer than the 1000 of 2026-09-01, the most in the last 30 days (at most 50 may go within 30 days)',
    );
    expect(table.writes).toEqual([]);
  });

  it('forgets a count after 30 days: the largest of the days since is the baseline', async () => {
    await refreshLists(await copyOf(1000));
    clock.advance(DAY);
    await refreshLists(await copyOf(951));
    clock.advance(29 * DAY); // 2026-10-01: 2026-09-01 is 30 days back, 2026-09-02 within
    expect(await refreshLists(await copyOf(905))).toMatchObject({ removed: 46 });
    expect(table.refresh?.peaks).toEqual({ SDN: { '2026-09-02': 951, '2026-10-01': 905 } });
  });

  it('starts afresh from a copy an operator forced: the next day measures from it', async () => {
    await refreshLists(await copyOf(1000));
    clock.advance(DAY);
    expect(await refreshLists(await copyOf(800), { force: true })).toMatchObject({ removed: 200 });
    expect(table.refresh?.peaks).toEqual({ SDN: { '2026-09-02': 800 } });
    clock.advance(DAY);
    expect(await refreshLists(await copyOf(760))).toMatchObject({ removed: 40 });
  });

  it('keeps each day’s largest count, a growing list’s too', async () => {
    await refreshLists(await copyOf(1000));
    await refreshLists(await copyOf(1100));
    await refreshLists(await copyOf(1050));
    expect(table.refresh?.peaks).toEqual({ SDN: { '2026-09-01': 1100 } });
    clock.advance(DAY);
    await expect(refreshLists(await copyOf(1040))).rejects.toThrow(
      'SDN: 1040 listed persons, 60 fewer than the 1100 of 2026-09-01, the most in the last 30 days (at most 55 may go within 30 days)',
    );
  });
});

describe('refreshing the lists from a download', () => {
  let server: ListServer;
  beforeAll(async () => {
    server = await startListServer();
  });
  afterAll(() => server.close());

  const END = '\u001a';
  const COPY: Record<string, string> = {
    'sdn.csv': `${SDN}${END}`,
    'alt.csv': `${ALT}${END}`,
    'add.csv': END,
    'cons_prim.csv': `${sdnRow(9, 'ROE, Rita')}${END}`,
    'cons_alt.csv': END,
  };
  /** Serves the copy, each file with this `Last-Modified` (none where undefined). */
  function publish(lastModified: Record<string, string | undefined>) {
    for (const [name, text] of Object.entries(COPY))
      server.serve(name, { kind: 'file', text, lastModified: lastModified[name] });
  }
  const DATE = 'Fri, 04 Sep 2026 14:01:44 GMT';

  it('refuses a downloaded file that says not when it was published (no Last-Modified), unless forced', async () => {
    publish({ 'alt.csv': DATE, 'add.csv': DATE, 'cons_prim.csv': DATE, 'cons_alt.csv': DATE });
    const refresh = refreshLists({ url: server.url });
    await expect(refresh).rejects.toThrow(ListsRefreshRefused);
    await expect(refresh).rejects.toThrow(
      'sdn.csv: sent no Last-Modified, so it cannot be told from an older copy replayed (the one last refreshed from is the newest allowed)',
    );
    expect(table.writes).toEqual([]);

    expect(await refreshLists({ url: server.url }, { force: true })).toMatchObject({ put: 4 });
  });

  it('never writes a download cut short, even forced', async () => {
    publish({ 'sdn.csv': DATE, 'alt.csv': DATE, 'add.csv': DATE, 'cons_prim.csv': DATE, 'cons_alt.csv': DATE });
    server.serve('alt.csv', { kind: 'file', text: ALT, lastModified: DATE });
    const refresh = refreshLists({ url: server.url }, { force: true });
    await expect(refresh).rejects.toThrow(ListsRefreshRefused);
    await expect(refresh).rejects.toThrow('alt.csv: does not end with OFAC’s end-of-file mark (control-Z): cut short?');
    expect(table.writes).toEqual([]);
  });
});

function listing(entryId: string): ListedPerson {
  return {
    list: 'sanctions',
    source: 'SDN',
    entryId,
    name: 'X, Y',
    names: [{ name: 'X, Y', kind: 'primary' }],
    datesOfBirth: [],
  };
}
