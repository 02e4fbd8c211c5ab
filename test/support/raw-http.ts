import { connect } from 'node:net';

// HTTP/1.1 written byte for byte over a socket, for requests no client library sends as
// given: a header section of an exact size. The request closes the connection, so the
// response is whatever arrives until the server closes it.

export interface RawHttpRequest {
  readonly method: string;
  readonly path: string;
  /** In order, exactly as sent; `Host` and `Connection: close` are added first. */
  readonly headers: readonly (readonly [string, string])[];
}

export interface RawHttpResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** What API Gateway's header quota counts for `request`: the request line and every header's name and value. */
export function headerSectionBytes(request: RawHttpRequest, host: string): number {
  const line = `${request.method} ${request.path} HTTP/1.1`;
  return [line, ...allHeaders(request, host).flat()].reduce((sum, part) => sum + Buffer.byteLength(part), 0);
}

/** A header whose value pads `request` to exactly `total` bytes as the quota counts them. */
export function padTo(request: RawHttpRequest, host: string, total: number): RawHttpRequest {
  const name = 'x-padding';
  const used = headerSectionBytes(request, host) + name.length;
  return { ...request, headers: [...request.headers, [name, 'p'.repeat(total - used)]] };
}

export function sendRawHttp(baseUrl: string, request: RawHttpRequest): Promise<RawHttpResponse> {
  const url = new URL(baseUrl);
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    ...allHeaders(request, url.host).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    socket.write(`${head}\r\n\r\n`);
  });
}

function allHeaders(request: RawHttpRequest, host: string): (readonly [string, string])[] {
  return [['host', host], ['connection', 'close'], ...request.headers];
}

function parse(text: string): RawHttpResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: text.slice(end + 4) };
}
