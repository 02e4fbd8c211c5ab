import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as listsRefresh } from '#functions/screening/handlers/lists-refresh';
import { scheduledEvent } from '#lib/local/pipeline/schedule-runner';
import { ENV } from '#shared/config';
import { ENTITY } from '#shared/db/entities';
import { ddb, functionUnderTest, useHandlerHarness } from '#test/support/handler-harness';
import { type ListServer, startListServer } from '#test/support/list-server';
import { countOf, lineWith } from '#test/support/metrics';

/**
 * The daily refresh as a scheduled function: where it reads the lists, what it counts and
 * that a refused copy writes nothing. (Its diff and checks on DynamoDB Local and OFAC's
 * real files: test/integration/screening/lists-refresh.test.ts.)
 */
const harness = useHandlerHarness();
const refresh = functionUnderTest('ListsRefresh', listsRefresh);
const SCHEDULED = scheduledEvent('ListsRefresh', 'us-east-1');

const SDN = '1,"DOE, Jane","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,"DOB 01 Jan 1970"\r\n\u001a';
const OFAC_COPY: Record<string, string> = {
  'sdn.csv': SDN,
  'alt.csv': '1,7,"aka","DOE, Janet",-0-\r\n\u001a',
  'add.csv': '1,3,-0-,"Havana","Cuba",-0-\r\n\u001a',
  'cons_prim.csv': '9,"ROE, Rita","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,-0-\r\n\u001a',
  'cons_alt.csv': '\u001a',
};

let server: ListServer;
beforeAll(async () => {
  server = await startListServer();
});
afterAll(() => server.close());
const clearSources = () => {
  delete process.env[ENV.screeningListsUrl];
  delete process.env[ENV.screeningListsDir];
};
beforeEach(clearSources);
afterEach(clearSources);

/** Serves the copy, each file dated as OFAC's store dates it (`Last-Modified`). */
function serveCopy(overrides: Record<string, string> = {}) {
  const lastModified = 'Fri, 04 Sep 2026 14:01:44 GMT';
  for (const [name, text] of Object.entries({ ...OFAC_COPY, ...overrides })) {
    server.serve(name, { kind: 'file', text, lastModified });
  }
  process.env[ENV.screeningListsUrl] = server.url;
}

const writesSent = () => [
  ...ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item?.entity),
  ...ddb.commandCalls(UpdateCommand).map(() => 'update'),
  ...ddb.commandCalls(DeleteCommand).map(() => 'delete'),
];

describe('ListsRefresh (daily)', () => {
  it('downloads OFAC’s files from SCREENING_LISTS_URL and writes the listings, the change and the note of the refresh', async () => {
    serveCopy();
    const outcome = await refresh(SCHEDULED);
    expect(outcome).toMatchObject({ put: 2, removed: 0, counts: { SDN: 1, CONS: 1 } });
    expect(writesSent()).toEqual([
      ENTITY.screeningListing,
      ENTITY.screeningListing,
      ENTITY.screeningChange,
      'update',
      'update',
    ]);
    expect(countOf(harness.metrics, 'ScreeningListsRefreshed')).toBe(1);
    expect(countOf(harness.metrics, 'ScreeningListsRefreshFailed')).toBe(0);
  });

  it('reads the folder SCREENING_LISTS_DIR instead when it is set (the local runtime)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lists-'));
    await writeFile(join(dir, 'sdn.csv'), SDN);
    process.env[ENV.screeningListsDir] = dir;
    process.env[ENV.screeningListsUrl] = server.url;
    const requests = server.requests.length;
    expect(await refresh(SCHEDULED)).toMatchObject({ put: 1, counts: { SDN: 1 } });
    expect(server.requests).toHaveLength(requests);
  });

  it('refuses a copy cut short, writes nothing, counts the failure and fails the run', async () => {
    serveCopy({ 'alt.csv': '1,7,"aka","DOE, Janet",-0-\r\n' });
    await expect(refresh(SCHEDULED)).rejects.toThrow(
      'the screening lists were not refreshed, nothing was written: alt.csv: does not end with OFAC’s end-of-file mark',
    );
    expect(writesSent()).toEqual([]);
    expect(countOf(harness.metrics, 'ScreeningListsRefreshFailed')).toBe(1);
    expect(countOf(harness.metrics, 'ScreeningListsRefreshed')).toBe(0);
    expect(harness.logs.some((line) => line.includes('screening lists not refreshed'))).toBe(true);
  });

  it('counts a failed download as a failed refresh', async () => {
    serveCopy();
    server.serve('cons_prim.csv', { kind: 'status', status: 503 });
    await expect(refresh(SCHEDULED)).rejects.toThrow('cons_prim.csv answered 503');
    expect(writesSent()).toEqual([]);
    expect(countOf(harness.metrics, 'ScreeningListsRefreshFailed')).toBe(1);
  });

  it('refuses a download redirected off the configured host: writes nothing, counted as a failed download', async () => {
    serveCopy();
    server.serve('elsewhere/sdn.csv', { kind: 'file', text: SDN });
    server.serve('sdn.csv', {
      kind: 'redirect',
      location: `${server.url.replace('127.0.0.1', 'localhost')}elsewhere/sdn.csv`,
    });
    await expect(refresh(SCHEDULED)).rejects.toThrow(/^sdn\.csv: .*redirected to http:\/\/localhost/);
    expect(server.requests).not.toContain('elsewhere/sdn.csv');
    expect(writesSent()).toEqual([]);
    expect(countOf(harness.metrics, 'ScreeningListsRefreshFailed')).toBe(1);
    expect(lineWith(harness.metrics, 'ScreeningListsRefreshFailed')?.failure).toBe('ListDownloadError');
  });

  it('fails, counted, when no source is configured', async () => {
    await expect(refresh(SCHEDULED)).rejects.toThrow('neither SCREENING_LISTS_URL nor SCREENING_LISTS_DIR is set');
    expect(countOf(harness.metrics, 'ScreeningListsRefreshFailed')).toBe(1);
  });

  it('refuses a URL other than https', async () => {
    process.env[ENV.screeningListsUrl] = 'http://lists.example.com/';
    await expect(refresh(SCHEDULED)).rejects.toThrow('SCREENING_LISTS_URL must be an https:// URL');
  });

  it('refuses an operator’s invocation whose force is not a boolean', async () => {
    serveCopy();
    await expect(refresh({ force: 'yes' })).rejects.toThrow();
    expect(writesSent()).toEqual([]);
  });
});
