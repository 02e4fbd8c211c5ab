import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_DOWNLOAD_LIMITS,
  downloadListFiles,
  ListDownloadError,
  OFAC_LISTS_URL,
  OFAC_STORE_HOST,
} from '#functions/screening/download-lists';
import { type ListServer, OFAC_FIXTURES, startListServer } from '#test/support/list-server';

// Against a loopback server standing in for OFAC's download service (no internet).

let server: ListServer;
beforeAll(async () => {
  server = await startListServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.delay(0);
  server.resetCounts();
  return server.serveFolder(OFAC_FIXTURES);
});

const limits = { ...DEFAULT_DOWNLOAD_LIMITS, timeoutMs: 2_000 };

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

  it('follows a redirect on the base URL’s host', async () => {
    const text = '1,"A",-0-,-0-\r\n\u001a';
    server.serve('moved/sdn.csv', { kind: 'file', text });
    server.serve('sdn.csv', { kind: 'redirect', location: '/moved/sdn.csv' });
    expect((await downloadListFiles(server.url, limits)).files.sdn?.text).toBe(text);
  });

  it('refuses a redirect to another host (here: localhost for 127.0.0.1), and never asks it', async () => {
    server.requests.length = 0;
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
    await expect(
      downloadListFiles(server.url, { ...limits, maxBytes: { ...limits.maxBytes, sdn: 1_000_000 } }),
    ).rejects.toThrow(/^sdn\.csv: \d+ bytes announced, more than the 1000000 allowed/);
    server.serve('sdn.csv', { kind: 'file', text: 'x'.repeat(2_000_000), chunked: true });
    await expect(
      downloadListFiles(server.url, { ...limits, maxBytes: { ...limits.maxBytes, sdn: 1_000_000 } }),
    ).rejects.toThrow(/^sdn\.csv: more than the 1000000 bytes allowed/);
  });
});

describe('what a download holds in memory (the function has 512 MB)', () => {
  const MiB = 1024 * 1024;

  it('downloads the five files one after another, never two at once', async () => {
    server.delay(50);
    const { files } = await downloadListFiles(server.url, limits);
    expect(Object.keys(files)).toHaveLength(5);
    expect(server.mostAtOnce).toBe(1);
    expect(server.requests.slice(-5)).toEqual(['sdn.csv', 'alt.csv', 'add.csv', 'cons_prim.csv', 'cons_alt.csv']);
  });

  it.each([
    ['sdn.csv', 16 * MiB],
    ['alt.csv', 8 * MiB],
    ['add.csv', 8 * MiB],
    ['cons_prim.csv', 2 * MiB],
    ['cons_alt.csv', 1 * MiB],
  ])('holds %s to its own cap, %i bytes, by default: a KiB more is refused as announced', async (name, cap) => {
    const kib = 'x'.repeat(1024);
    server.serve(name, { kind: 'stream', chunk: kib, times: cap / 1024 + 1, announce: true });
    await expect(downloadListFiles(server.url)).rejects.toThrow(
      `${name}: ${cap + 1024} bytes announced, more than the ${cap} allowed`,
    );
  });

  it('refuses a file that passes its cap without announcing it, without reading the rest', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    server.serve('sdn.csv', { kind: 'stream', chunk, times: 1024 }); // 64 MiB, chunked
    await expect(downloadListFiles(server.url)).rejects.toThrow(`sdn.csv: more than the ${16 * MiB} bytes allowed`);
    expect(server.sent('sdn.csv')).toBeLessThan(32 * MiB);
  });
});

describe('downloading from OFAC’s service (its host names taken to the loopback stand-in)', () => {
  const NAMES = ['sdn.csv', 'alt.csv', 'add.csv', 'cons_prim.csv', 'cons_alt.csv'];
  const SERVICE = new URL(OFAC_LISTS_URL);
  const TEXT = '1,"A",-0-,-0-\r\n\u001a';
  /** Each file answered as OFAC answers it: a redirect to a presigned address in its store. */
  function serveAsOfac() {
    for (const name of NAMES) {
      const stored = `Published/current/${name}?X-Amz-Signature=abc`;
      server.serve(`${SERVICE.pathname.slice(1)}${name}`, {
        kind: 'redirect',
        location: `https://${OFAC_STORE_HOST}/${stored}`,
      });
      server.serve(stored, { kind: 'file', text: TEXT, lastModified: 'Fri, 04 Sep 2026 14:01:44 GMT' });
    }
  }

  it('follows OFAC’s redirect to a presigned address in its store', async () => {
    serveAsOfac();
    const route = server.routing([SERVICE.host, OFAC_STORE_HOST]);
    const { files } = await downloadListFiles(OFAC_LISTS_URL, limits, route.fetch);
    expect(files.consAlt?.text).toBe(TEXT);
    expect(route.asked).toContain(`https://${OFAC_STORE_HOST}/Published/current/sdn.csv?X-Amz-Signature=abc`);
  });

  it.each([
    ['plain HTTP, even on OFAC’s own host', `http://${SERVICE.host}/Published/current/sdn.csv`],
    ['plain HTTP to its store', `http://${OFAC_STORE_HOST}/Published/current/sdn.csv`],
    ['another host, another S3 bucket too', 'https://lists-mirror.s3.amazonaws.com/sdn.csv'],
  ])('refuses a redirect to %s, and never asks it', async (_, location) => {
    serveAsOfac();
    server.serve(`${SERVICE.pathname.slice(1)}sdn.csv`, { kind: 'redirect', location });
    const route = server.routing([SERVICE.host, OFAC_STORE_HOST, 'lists-mirror.s3.amazonaws.com']);
    const download = downloadListFiles(OFAC_LISTS_URL, limits, route.fetch);
    await expect(download).rejects.toThrow(ListDownloadError);
    await expect(download).rejects.toThrow(
      `sdn.csv: ${OFAC_LISTS_URL}sdn.csv redirected to ${location}: only https on ${SERVICE.host} or ${OFAC_STORE_HOST} is followed`,
    );
    expect(route.asked).not.toContain(location);
  });

  it('never follows a mirror to OFAC’s store: a mirror’s files come from its own host', async () => {
    const mirror = 'https://lists.example.com/ofac/';
    for (const name of NAMES) server.serve(`ofac/${name}`, { kind: 'file', text: TEXT });
    server.serve('ofac/sdn.csv', {
      kind: 'redirect',
      location: `https://${OFAC_STORE_HOST}/Published/current/sdn.csv`,
    });
    const route = server.routing(['lists.example.com', OFAC_STORE_HOST]);
    await expect(downloadListFiles(mirror, limits, route.fetch)).rejects.toThrow(
      /^sdn\.csv: .*: only https on lists\.example\.com is followed$/,
    );
    expect(route.asked.filter((url) => url.includes(OFAC_STORE_HOST))).toEqual([]);
  });
});
