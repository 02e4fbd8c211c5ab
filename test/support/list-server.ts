import { readFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAbsolute, join } from 'node:path';
import type { Fetch } from '#functions/screening/download-lists';
import { REPO_ROOT } from '#lib/repo-root';

// OFAC's download service as the refresh sees it, on 127.0.0.1: the files of a folder
// under `<url>/<folder-name>/`, each with a `Last-Modified`, and the ways a download goes
// wrong, chosen per file by the test (`serve`).

/** How one file is answered. */
export type Answer =
  | { readonly kind: 'file'; readonly text: string; readonly lastModified?: string; readonly chunked?: boolean }
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'silent' }
  | { readonly kind: 'redirect'; readonly location: string }
  | { readonly kind: 'cut'; readonly text: string; readonly after: number }
  /**
   * `chunk` sent `times` over, each write only once the client has taken the last (as a
   * large file arrives), stopping when the client goes; `announce`: with its whole length.
   */
  | { readonly kind: 'stream'; readonly chunk: string; readonly times: number; readonly announce?: boolean };

export interface ListServer {
  /** The base URL, with a trailing slash. */
  readonly url: string;
  /** Every path asked for, in order. */
  readonly requests: string[];
  /** How `name` is answered from now on. */
  serve(name: string, answer: Answer): void;
  /** Every answer from now on waits this long before it starts (a distant server). */
  delay(ms: number): void;
  /** The most requests answered at once since the last `resetCounts()`. */
  readonly mostAtOnce: number;
  /** The bytes of a `stream` answer handed to the connection before it ended or the client went. */
  sent(name: string): number;
  resetCounts(): void;
  /** Serves every file of a folder (relative to the repository or absolute) with one `Last-Modified`. */
  serveFolder(dir: string, lastModified?: string): Promise<void>;
  /**
   * A `fetch` that takes these host names to this server, as DNS and TLS would take them to
   * OFAC's (no test leaves the machine): `<scheme>://<host>/<path>` is asked as `<url><path>`,
   * and every URL asked is noted in `asked`. Any other host fails as a name no DNS knows.
   */
  routing(hosts: readonly string[]): { readonly fetch: Fetch; readonly asked: string[] };
  close(): Promise<void>;
}

export const OFAC_FIXTURES = 'test/fixtures/ofac';
const OFAC_FILE_NAMES = ['sdn.csv', 'alt.csv', 'add.csv', 'cons_prim.csv', 'cons_alt.csv'];

export async function startListServer(): Promise<ListServer> {
  const answers = new Map<string, Answer>();
  const requests: string[] = [];
  const held = new Set<ServerResponse>();
  const sent = new Map<string, number>();
  let latencyMs = 0;
  let atOnce = 0;
  let mostAtOnce = 0;
  const server: Server = createServer((request, response) => {
    const name = (request.url ?? '/').slice(1);
    requests.push(name);
    mostAtOnce = Math.max(mostAtOnce, ++atOnce);
    response.on('close', () => atOnce--);
    const answer = answers.get(name) ?? { kind: 'status', status: 404 };
    if (latencyMs > 0) setTimeout(() => respond(name, answer, response), latencyMs);
    else respond(name, answer, response);
  });
  function respond(name: string, answer: Answer, response: ServerResponse) {
    switch (answer.kind) {
      case 'file':
        response.writeHead(200, {
          'content-type': 'text/csv',
          ...(!answer.chunked && { 'content-length': Buffer.byteLength(answer.text) }),
          ...(answer.lastModified && { 'last-modified': answer.lastModified }),
        });
        response.end(answer.text);
        return;
      case 'status':
        response.writeHead(answer.status).end();
        return;
      case 'silent':
        held.add(response);
        return;
      case 'redirect':
        response.writeHead(302, { location: answer.location }).end();
        return;
      case 'cut': {
        // Announces the whole file, sends part of it, then drops the connection.
        response.writeHead(200, { 'content-length': Buffer.byteLength(answer.text) });
        response.write(answer.text.slice(0, answer.after));
        setTimeout(() => response.socket?.destroy(), 10);
        return;
      }
      case 'stream': {
        const size = Buffer.byteLength(answer.chunk);
        response.writeHead(200, {
          'content-type': 'text/csv',
          ...(answer.announce && { 'content-length': size * answer.times }),
        });
        void pump(name, answer, size, response);
        return;
      }
    }
  }
  async function pump(name: string, answer: Answer & { kind: 'stream' }, size: number, response: ServerResponse) {
    let gone = false;
    response.once('close', () => {
      gone = true;
    });
    sent.set(name, 0);
    for (let n = 0; n < answer.times && !gone; n++) {
      const more = response.write(answer.chunk);
      sent.set(name, (sent.get(name) ?? 0) + size);
      if (!more)
        await new Promise((resolve) =>
          gone ? resolve(undefined) : response.once('drain', resolve).once('close', resolve),
        );
    }
    if (!gone) response.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    serve: (name, answer) => void answers.set(name, answer),
    delay: (ms) => {
      latencyMs = ms;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
    sent: (name) => sent.get(name) ?? 0,
    resetCounts: () => {
      mostAtOnce = atOnce;
      sent.clear();
    },
    async serveFolder(dir, lastModified = 'Fri, 04 Sep 2026 14:01:44 GMT') {
      for (const name of OFAC_FILE_NAMES) {
        const text = await readFile(join(isAbsolute(dir) ? dir : join(REPO_ROOT, dir), name), 'utf8');
        answers.set(name, { kind: 'file', text, lastModified });
      }
    },
    routing(hosts) {
      const asked: string[] = [];
      const local = new URL(`http://127.0.0.1:${port}/`);
      const routed: Fetch = (url, init) => {
        if (!hosts.includes(url.host)) {
          return Promise.reject(
            new TypeError('fetch failed', { cause: new Error(`getaddrinfo ENOTFOUND ${url.host}`) }),
          );
        }
        asked.push(url.href);
        return fetch(new URL(`${url.pathname}${url.search}`, local), init);
      };
      return { fetch: routed, asked };
    },
    async close() {
      for (const response of held) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
