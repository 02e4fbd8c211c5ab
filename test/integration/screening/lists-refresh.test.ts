import { readFileSync } from 'node:fs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as listsRefreshHandler } from '#functions/screening/handlers/lists-refresh';
import { writeListChanges } from '#functions/screening/load-lists';
import { scheduledEvent } from '#lib/local/pipeline/schedule-runner';
import { ENV } from '#shared/config';
import { screeningListings } from '#shared/db/screening/index';
import { resetDependencies } from '#shared/dependencies';
import { setLogSink } from '#shared/logger';
import { type ListServer, OFAC_FIXTURES, startListServer } from '#test/support/list-server';
import { createTestTable, functionUnderTest } from '../harness';

/**
 * The daily refresh on DynamoDB Local against OFAC's real files (4,620 SDN and 79
 * Consolidated individuals), served by a loopback stand-in for OFAC's download service:
 * what it writes for a first copy, an unchanged one, a changed one, and what it refuses.
 */
const refresh = functionUnderTest('ListsRefresh', listsRefreshHandler);
const SCHEDULED = scheduledEvent('ListsRefresh', 'us-east-1');
/**
 * A test here gives up after a budget from the listings it writes
 * (docs/testing.md#on-a-busy-machine): a first copy writes all 4,699. 2.9 ms a listing
 * measured idle (13.6 s), 39 ms in a full `npm test` with both cores kept busy (184 s).
 */
const LISTED_INDIVIDUALS = 4_620 + 79;
const MS_PER_LISTING = 100;
const SLOW = { timeout: LISTED_INDIVIDUALS * MS_PER_LISTING };
const NAMES = ['sdn.csv', 'alt.csv', 'add.csv', 'cons_prim.csv', 'cons_alt.csv'] as const;
type Copy = Record<(typeof NAMES)[number], string>;
const END = '\u001a';

const snapshot = (): Copy =>
  Object.fromEntries(NAMES.map((name) => [name, readFileSync(`${OFAC_FIXTURES}/${name}`, 'utf8')])) as Copy;

/** A copy of OFAC's files without the rows of these entries (in sdn.csv, alt.csv and add.csv). */
function without(copy: Copy, entNums: readonly string[]): Copy {
  const drop = (text: string) =>
    text
      .split('\r\n')
      .filter((line) => !entNums.some((n) => line.startsWith(`${n},`)))
      .join('\r\n');
  return {
    ...copy,
    'sdn.csv': drop(copy['sdn.csv']),
    'alt.csv': drop(copy['alt.csv']),
    'add.csv': drop(copy['add.csv']),
  };
}

const individuals = (copy: Copy) =>
  copy['sdn.csv']
    .split('\r\n')
    .filter((line) => line.includes('"individual"'))
    .map((line) => line.slice(0, line.indexOf(',')));

let server: ListServer;
let day = 4;
/** Serves the copy, published a day after the one served before. */
function publish(copy: Copy, lastModified = `Fri, ${String(++day).padStart(2, '0')} Sep 2026 14:01:44 GMT`) {
  for (const name of NAMES) server.serve(name, { kind: 'file', text: copy[name], lastModified });
}

/** The table commands sent while `run` runs, by name. */
async function commandsOf<T>(run: () => Promise<T>): Promise<{ result: T; sent: Record<string, number> }> {
  const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send');
  try {
    const result = await run();
    const sent: Record<string, number> = {};
    for (const [command] of send.mock.calls) {
      const name = (command as object).constructor.name;
      sent[name] = (sent[name] ?? 0) + 1;
    }
    return { result, sent };
  } finally {
    send.mockRestore();
  }
}

const logged: string[] = [];
beforeAll(async () => {
  setLogSink((line) => logged.push(line));
  await createTestTable();
  server = await startListServer();
  process.env[ENV.screeningListsUrl] = server.url;
});
afterAll(async () => {
  delete process.env[ENV.screeningListsUrl];
  await server?.close();
  setLogSink(undefined);
  resetDependencies();
});

describe('the daily refresh of OFAC’s lists, on the table', () => {
  const first = snapshot();

  it('loads a first copy whole: every listed person, one change, the version moved', SLOW, async () => {
    publish(first);
    const started = performance.now();
    const outcome = await refresh(SCHEDULED);
    const ms = Math.round(performance.now() - started);
    expect(outcome).toMatchObject({ put: 4699, removed: 0, counts: { SDN: 4620, CONS: 79 } });
    expect(outcome.changeId).toBeDefined();
    expect(await screeningListings().version()).toBe(1);
    expect((await screeningListings().all('sanctions')).length).toBe(4699);
    const last = await screeningListings().lastRefresh();
    expect(last?.published['sdn.csv']).toBe('2026-09-05T14:01:44.000Z');
    const today = last?.refreshedAt.slice(0, 10) as string;
    expect(last?.peaks).toEqual({ SDN: { [today]: 4620 }, CONS: { [today]: 79 } });
    console.info(`first refresh of the real snapshot (4,699 listings written): ${ms} ms`);
  });

  it(
    'writes nothing for an unchanged copy: no listing, no change, the version stays; only the note of the refresh',
    SLOW,
    async () => {
      publish(first);
      const started = performance.now();
      const { result, sent } = await commandsOf(() => refresh(SCHEDULED));
      const ms = Math.round(performance.now() - started);
      expect(result).toEqual({ put: 0, removed: 0, counts: { SDN: 4620, CONS: 79 } });
      expect(sent.PutCommand ?? 0).toBe(0);
      expect(sent.DeleteCommand ?? 0).toBe(0);
      expect(sent.UpdateCommand).toBe(1);
      expect(await screeningListings().version()).toBe(1);
      console.info(`refresh of an unchanged copy: ${ms} ms, commands ${JSON.stringify(sent)}`);
    },
  );

  it(
    'writes only the listings added, changed or taken off, and re-screens against the changed ones alone',
    SLOW,
    async () => {
      const [gone, renamed, aliased] = individuals(first);
      const changed = without(first, [gone as string]);
      changed['sdn.csv'] = changed['sdn.csv'].replace(
        new RegExp(`^${renamed},"[^"]*"`, 'm'),
        `${renamed},"RENAMED, Person"`,
      );
      changed['alt.csv'] = changed['alt.csv'].replace(END, `${aliased},99999,"aka","NEW ALIAS, Added",-0- \r\n${END}`);
      publish(changed);
      const { result, sent } = await commandsOf(() => refresh(SCHEDULED));
      expect(result).toMatchObject({ put: 2, removed: 1, counts: { SDN: 4619, CONS: 79 } });
      expect(sent.PutCommand).toBe(3); // two listings and the change
      expect(sent.DeleteCommand).toBe(1);

      const change = await screeningListings().change(result.changeId as string);
      expect(change).toEqual({
        all: false,
        listings: [
          { list: 'sanctions', entryId: `SDN-${renamed}` },
          { list: 'sanctions', entryId: `SDN-${aliased}` },
        ],
      });
      expect(await screeningListings().get([{ list: 'sanctions', entryId: `SDN-${gone}` }])).toEqual([]);
      const [alias] = await screeningListings().get([{ list: 'sanctions', entryId: `SDN-${aliased}` }]);
      expect(alias?.names.map((name) => name.name)).toContain('NEW ALIAS, Added');
      expect(await screeningListings().version()).toBe(2);
    },
  );

  it('never takes off a local entry (its source is not OFAC’s)', SLOW, async () => {
    const local = {
      list: 'sanctions' as const,
      source: 'LOCAL',
      entryId: 'LOCAL-1',
      name: 'LOCAL, Entry',
      names: [{ name: 'LOCAL, Entry', kind: 'primary' as const }],
      datesOfBirth: [],
    };
    await writeListChanges({ put: [local] });
    publish(first);
    await refresh(SCHEDULED);
    expect(await screeningListings().get([{ list: 'sanctions', entryId: 'LOCAL-1' }])).toHaveLength(1);
  });

  it('refuses a file published before the one last refreshed from, writing nothing', SLOW, async () => {
    const version = await screeningListings().version();
    publish(without(first, [individuals(first)[5] as string]), 'Thu, 03 Sep 2026 14:01:44 GMT');
    await expect(refresh(SCHEDULED)).rejects.toThrow(/sdn\.csv: published 2026-09-03T14:01:44\.000Z, before the/);
    expect(await screeningListings().version()).toBe(version);
  });

  it('refuses a copy cut short in transit (mid-row, or at a row’s end)', SLOW, async () => {
    const version = await screeningListings().version();
    const sdn = first['sdn.csv'];
    publish({ ...first, 'sdn.csv': sdn.slice(0, Math.floor(sdn.length / 2)) });
    await expect(refresh(SCHEDULED)).rejects.toThrow(/sdn\.csv, line \d+|is not listed/);
    publish({
      ...first,
      'cons_alt.csv': first['cons_alt.csv'].slice(0, first['cons_alt.csv'].lastIndexOf('\r\n', 30_000) + 2),
    });
    await expect(refresh(SCHEDULED)).rejects.toThrow(/cons_alt\.csv: does not end with OFAC’s end-of-file mark/);
    expect(await screeningListings().version()).toBe(version);
  });

  it('refuses a well-formed copy that lost half its listed persons, unless an operator forces it', SLOW, async () => {
    const version = await screeningListings().version();
    const half = individuals(first).slice(0, 2300);
    const shrunk = without(first, half);
    publish(shrunk);
    await expect(refresh(SCHEDULED)).rejects.toThrow(
      /SDN: 2320 listed persons, 2300 fewer than the 4620 stored \(at most 231 may go at once\)/,
    );
    expect(await screeningListings().version()).toBe(version);

    publish(shrunk);
    expect(await refresh({ force: true })).toMatchObject({ removed: 2300, counts: { SDN: 2320 } });
    expect(await screeningListings().get([{ list: 'sanctions', entryId: `SDN-${half[0]}` }])).toEqual([]);
  });
});
