import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { downloadListFiles, ListDownloadError } from '#functions/screening/download-lists';
import { type ListServer, OFAC_FIXTURES, startListServer } from '#test/support/list-server';

// Against a loopback server standing in for OFAC's download service (no internet).

let server: ListServer;
beforeAll(async () => {
  server = await startListServer();
});
afterAll(() => server.close());
beforeEach(() => server.serveFolder(OFAC_FIXTURES));

const limits = { timeoutMs: 2_000, maxBytes: 5 * 1024 * 1024 };

describe('downloading OFAC’s list files', () => {
  it('fetches the five files under the base URL, each with its publication date', async () => {
    const { files, published } = await downloadListFiles(server.url, limits);
    expect(Object.keys(files).sort()).toEqual(['add', 'alt', 'consAlt', 'consPrim', 'sdn']);
    expect(files.sdn?.name).toBe('sdn.csv');
    expect(files.sdn?.text).toMatch(/^36,"AEROCARIBBEAN AIRLINES"/);
    expect(published['cons_alt.csv']).toBe('2026-09-04T14:01:44.000Z');
  });

  it('takes a base URL with or without its trailing slash', async () => {
    server.requests.length = 0;
    await downloadListFiles(server.url.replace(/\/$/, ''), limits);
    expect(server.requests.sort()).toEqual(['add.csv', 'alt.csv', 'cons_alt.csv', 'cons_prim.csv', 'sdn.csv']);
  });

  it('follows a redirect (OFAC answers with an address in its store)', async () => {
    const text = '1,"A",-0-,-0-\r\n\u001a';
    server.serve('moved/sdn.csv', { kind: 'file', text });
    server.serve('sdn.csv', { kind: 'redirect', location: '/moved/sdn.csv' });
    expect((await downloadListFiles(server.url, limits)).files.sdn?.text).toBe(text);
  });

  it('refuses a redirect to another host (here: localhost for 127.0.0.1), and never asks it', async () => {
    const elsewhere = server.url.replace('127.0.0.1', 'localhost');
    server.serve('moved/sdn.csv', { kind: 'file', text: '1,"A",-0-,-0-\r\n\u001a' });
    server.serve('sdn.csv', { kind: 'redirect', location: `${elsewhere}moved/sdn.csv` });
    const download = downloadListFiles(server.url, limits);
    await expect(download).rejects.toThrow(ListDownloadError);
    await expect(download).rejects.toThrow(
      /^sdn\.csv: .*sdn\.csv redirected to http:\/\/localhost:\d+\/moved\/sdn\.csv: only .* 127\.0\.0\.1:\d+ is followed$/,
    );
    expect(server.requests).not.toContain('moved/sdn.csv');
  });

  it('follows at most 3 redirects', async () => {
    const text = '1,"A",-0-,-0-\r\n\u001a';
    server.serve('hop4/sdn.csv', { kind: 'file', text });
    server.serve('hop3/sdn.csv', { kind: 'redirect', location: '/hop4/sdn.csv' });
    server.serve('hop2/sdn.csv', { kind: 'redirect', location: '/hop3/sdn.csv' });
    server.serve('hop1/sdn.csv', { kind: 'redirect', location: '/hop2/sdn.csv' });
    server.serve('sdn.csv', { kind: 'redirect', location: '/hop1/sdn.csv' });
    await expect(downloadListFiles(server.url, limits)).rejects.toThrow(
      /^sdn\.csv: .*sdn\.csv redirected more than 3 times$/,
    );
    expect(server.requests).not.toContain('hop4/sdn.csv');

    server.serve('sdn.csv', { kind: 'redirect', location: '/hop2/sdn.csv' });
    expect((await downloadListFiles(server.url, limits)).files.sdn?.text).toBe(text);
  });

  it('fails, naming the file, when one answers other than 200', async () => {
    server.serve('cons_alt.csv', { kind: 'status', status: 500 });
    const download = downloadListFiles(server.url, limits);
    await expect(download).rejects.toThrow(ListDownloadError);
    await expect(download).rejects.toThrow(/^cons_alt\.csv: .*cons_alt\.csv answered 500$/);
  });

  it('fails when a file is missing (404): a copy without aliases would drop them', async () => {
    server.serve('alt.csv', { kind: 'status', status: 404 });
    await expect(downloadListFiles(server.url, limits)).rejects.toThrow(/alt\.csv answered 404/);
  });

  it('fails when a file does not answer in time', async () => {
    server.serve('add.csv', { kind: 'silent' });
    const started = Date.now();
    await expect(downloadListFiles(server.url, { ...limits, timeoutMs: 300 })).rejects.toThrow(
      /^add\.csv: .*no answer within 300 ms/,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('fails when the connection drops before the announced length', async () => {
    server.serve('sdn.csv', { kind: 'cut', text: 'x'.repeat(10_000), after: 4_000 });
    await expect(downloadListFiles(server.url, limits)).rejects.toThrow(/^sdn\.csv: download cut off/);
  });

  it('fails when a file is larger than allowed, announced or not', async () => {
    await expect(downloadListFiles(server.url, { ...limits, maxBytes: 1_000_000 })).rejects.toThrow(
      /^sdn\.csv: \d+ bytes announced, more than the 1000000 allowed/,
    );
    server.serve('sdn.csv', { kind: 'file', text: 'x'.repeat(2_000_000), chunked: true });
    await expect(downloadListFiles(server.url, { ...limits, maxBytes: 1_000_000 })).rejects.toThrow(
      /^sdn\.csv: more than the 1000000 bytes allowed/,
    );
  });
});
