import { FILE_NAMES, type ListFile, type ListFiles, OFAC_FILES } from './load-lists';

// Downloading OFAC's list files (docs/operations.md#screening-lists-refresh-failed): each of the
// five files under one base URL, over HTTPS, whole or not at all. What the files say is
// checked afterwards (functions/domain/list-refresh-checks.ts); here only how they came.

/**
 * OFAC's Sanctions List Service, which serves the files under their classic names
 * (`sdn.csv`, …; the treasury.gov addresses redirect to the same objects). A deployment
 * may name a mirror instead (`SCREENING_LISTS_URL`).
 */
export const OFAC_LISTS_URL = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/';

export interface DownloadLimits {
  /** Per file, from the request to the last byte. */
  readonly timeoutMs: number;
  /** Per file: OFAC's largest (`sdn.csv`) is about 6 MB. */
  readonly maxBytes: number;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { timeoutMs: 60_000, maxBytes: 50 * 1024 * 1024 };

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
): Promise<DownloadedLists> {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const downloads = await Promise.all(
    OFAC_FILES.map(
      async (key) => [key, await download(new URL(FILE_NAMES[key], base), FILE_NAMES[key], limits)] as const,
    ),
  );
  const files: Record<string, ListFile> = {};
  const published: Record<string, string> = {};
  for (const [key, { file, publishedAt }] of downloads) {
    files[key] = file;
    if (publishedAt) published[file.name] = publishedAt;
  }
  return { files: files as ListFiles, published };
}

async function download(
  url: URL,
  name: string,
  limits: DownloadLimits,
): Promise<{ file: ListFile; publishedAt?: string }> {
  const fail = (reason: string, cause?: unknown): never => {
    throw new ListDownloadError(name, reason, { cause });
  };
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const response = await fetch(url, {
    signal,
    headers: { 'user-agent': 'verify-service screening lists refresh', accept: 'text/csv, */*' },
  }).catch((error: unknown) => fail(`download of ${url.href} failed (${reasonOf(error, limits)})`, error));
  if (response.status !== 200) {
    await response.body?.cancel();
    fail(`${url.href} answered ${response.status}`);
  }
  // Redirects are followed (OFAC answers with a presigned address of its store), never to plain HTTP.
  if (url.protocol === 'https:' && new URL(response.url).protocol !== 'https:') {
    await response.body?.cancel();
    fail(`${url.href} redirected to ${new URL(response.url).protocol} (only https is followed)`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel();
    fail(`${declared} bytes announced, more than the ${limits.maxBytes} allowed`);
  }
  const text = await readText(response, limits.maxBytes).catch((error: unknown) =>
    fail(error instanceof TooLarge ? error.message : `download cut off (${reasonOf(error, limits)})`, error),
  );
  const lastModified = Date.parse(response.headers.get('last-modified') ?? '');
  return {
    file: { name, text },
    publishedAt: Number.isNaN(lastModified) ? undefined : new Date(lastModified).toISOString(),
  };
}

class TooLarge extends Error {}

/** The body as text, refused once it passes `maxBytes` (whatever the headers announced). */
async function readText(response: Response, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      // Leaving the loop cancels the rest of the body.
      if (size > maxBytes) throw new TooLarge(`more than the ${maxBytes} bytes allowed`);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

function reasonOf(error: unknown, limits: DownloadLimits): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${limits.timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}
