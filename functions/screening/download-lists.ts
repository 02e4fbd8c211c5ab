import { FILE_NAMES, type ListFile, type ListFiles, OFAC_FILES } from './load-lists';

// Downloading OFAC's list files (docs/operations.md#screening-lists-refresh-failed): each of the
// five files under one base URL, one after another, over HTTPS, redirected only where
// OFAC's are, under a cap each, whole or not at all. What the files say is checked
// afterwards (functions/domain/list-refresh-checks.ts); here only how they came.

/**
 * OFAC's Sanctions List Service, which serves the files under their classic names
 * (`sdn.csv`, …; the treasury.gov addresses redirect to the same objects). A deployment
 * may name a mirror instead (`SCREENING_LISTS_URL`).
 */
export const OFAC_LISTS_URL = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/';

/**
 * OFAC's published-list store (S3 in AWS GovCloud): the service answers each file with a
 * redirect to a presigned address there. The only host other than the base URL's that a
 * download follows a redirect to, and only from OFAC's service.
 */
export const OFAC_STORE_HOST = 'wc2h-sls-prod-public-published.s3.us-gov-west-1.amazonaws.com';

/** OFAC's service redirects once (to its store); a mirror may add one or two of its own. */
export const MAX_REDIRECTS = 3;

/**
 * `value` as the base URL of the lists when it is an https:// URL, else undefined: the lists
 * decide who is sanctioned, so they never come over plain HTTP (the deployment's setting,
 * `npm run lists:load -- --url`).
 */
export function httpsUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' ? url : undefined;
}

/** How a request goes out: the global `fetch`; a test routes host names to a loopback stand-in. */
export type Fetch = (url: URL, init: RequestInit) => Promise<Response>;

/** OFAC's files, by their key in `ListFiles`. */
export type OfacFile = (typeof OFAC_FILES)[number];

export interface DownloadLimits {
  /** Per file, from the request to the last byte. */
  readonly timeoutMs: number;
  /** Per file, in bytes: a file announced larger is refused unread, one arriving larger as soon as it passes. */
  readonly maxBytes: Readonly<Record<OfacFile, number>>;
}

const MiB = 1024 * 1024;

/**
 * The five files come one after another, each held whole in memory once it has arrived
 * (the function has 512 MB), so each is capped at about three times its size or more:
 * `sdn.csv` was 5.7 MB in 2026-09 (docs/decisions.md); `alt.csv` and `add.csv`, taken in
 * test/fixtures/ofac's proportions to it, about 1.7 and 2.5 MB; the Consolidated list's
 * two, 0.24 and 0.07 MB in test/fixtures/ofac. At most 35 MiB arrive in all, one file's
 * chunks at a time. 40 s a file: five in 200 s leave a third of ListsRefresh's 300 s for
 * the comparison and the writes, so a stalled download fails as a refresh (counted,
 * alarmed) before Lambda cuts the run.
 */
export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = {
  timeoutMs: 40_000,
  maxBytes: { sdn: 16 * MiB, alt: 8 * MiB, add: 8 * MiB, consPrim: 2 * MiB, consAlt: 1 * MiB },
};

/** The files as downloaded, and when each was published (its `Last-Modified`, ISO, where sent). */
export interface DownloadedLists {
  readonly files: ListFiles;
  readonly published: Readonly<Record<string, string>>;
}

/** A download that failed: which file and why (nothing is written). */
export class ListDownloadError extends Error {
  constructor(
    readonly file: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options);
    this.name = 'ListDownloadError';
  }
}

/** Downloads every OFAC file under `baseUrl`; throws a `ListDownloadError` unless each arrived whole. */
export async function downloadListFiles(
  baseUrl: string,
  limits: DownloadLimits = DEFAULT_DOWNLOAD_LIMITS,
  send: Fetch = fetch,
): Promise<DownloadedLists> {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const files: Record<string, ListFile> = {};
  const published: Record<string, string> = {};
  // One after another: only one file is arriving (as chunks, then as text) at any time.
  for (const key of OFAC_FILES) {
    const name = FILE_NAMES[key];
    const { file, publishedAt } = await download(new URL(name, base), name, limits, limits.maxBytes[key], send);
    files[key] = file;
    if (publishedAt) published[name] = publishedAt;
  }
  return { files: files as ListFiles, published };
}

async function download(
  url: URL,
  name: string,
  limits: DownloadLimits,
  maxBytes: number,
  send: Fetch,
): Promise<{ file: ListFile; publishedAt?: string }> {
  const fail = (reason: string, cause?: unknown): never => {
    throw new ListDownloadError(name, reason, { cause });
  };
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const response = await follow(url, signal, send).catch((error: unknown) =>
    fail(
      error instanceof Refused ? error.message : `download of ${url.href} failed (${reasonOf(error, limits)})`,
      error,
    ),
  );
  if (response.status !== 200) {
    await response.body?.cancel();
    fail(`${url.href} answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    fail(`${declared} bytes announced, more than the ${maxBytes} allowed`);
  }
  const text = await readText(response, maxBytes).catch((error: unknown) =>
    fail(error instanceof TooLarge ? error.message : `download cut off (${reasonOf(error, limits)})`, error),
  );
  const lastModified = Date.parse(response.headers.get('last-modified') ?? '');
  return {
    file: { name, text },
    publishedAt: Number.isNaN(lastModified) ? undefined : new Date(lastModified).toISOString(),
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The answer to `url`, following redirects by hand (`fetch` would follow any, to anywhere,
 * before its answer could be checked): at most `MAX_REDIRECTS`, each to the base URL's host
 * (or, from OFAC's service, to its store), and never from HTTPS to anything else. A
 * redirect refused is never asked.
 */
async function follow(url: URL, signal: AbortSignal, send: Fetch): Promise<Response> {
  const hosts = hostsFor(url);
  let at = url;
  for (let redirects = 0; ; redirects++) {
    const response = await send(at, {
      signal,
      redirect: 'manual',
      headers: { 'user-agent': 'verify-service screening lists refresh', accept: 'text/csv, */*' },
    });
    if (!REDIRECTS.has(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) throw new Refused(`${at.href} answered ${response.status} without a Location`);
    if (redirects === MAX_REDIRECTS) throw new Refused(`${url.href} redirected more than ${MAX_REDIRECTS} times`);
    const next = new URL(location, at);
    if (!hosts.includes(next.host) || !(next.protocol === 'https:' || next.protocol === url.protocol)) {
      const schemes = url.protocol === 'https:' ? 'https' : `https or ${url.protocol.slice(0, -1)}`;
      throw new Refused(
        `${at.href} redirected to ${next.origin}${next.pathname}: only ${schemes} on ${hosts.join(' or ')} is followed`,
      );
    }
    at = next;
  }
}

/** Where a download from `url` may be redirected: its own host, and OFAC's store from OFAC's service. */
function hostsFor(url: URL): string[] {
  return url.host === new URL(OFAC_LISTS_URL).host ? [url.host, OFAC_STORE_HOST] : [url.host];
}

/** A redirect the download does not follow. */
class Refused extends Error {}

class TooLarge extends Error {}

/** The body as text, refused once it passes `maxBytes` (whatever the headers announced). */
async function readText(response: Response, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      // Leaving the loop cancels the rest of the body: it is never read.
      if (size > maxBytes) throw new TooLarge(`more than the ${maxBytes} bytes allowed`);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function reasonOf(error: unknown, limits: DownloadLimits): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${limits.timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}
