import { type ClientRequest, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { VettedUrl } from '#domain/webhook-url';
import type { TransportResult, WebhookTransport } from './webhook-transport';

/**
 * Node's own HTTP client, because a delivery must reach an address its URL check approved:
 * the connection's DNS lookup is replaced by one that answers only those addresses (a
 * second, real lookup could answer a private one: DNS rebinding), while TLS still checks
 * the certificate against the URL's host name, which is also the SNI. Native fetch takes
 * no lookup (undici's Agent would, as a dependency of its own; docs/decisions.md).
 * - One connection per attempt, never pooled: a kept-alive socket would outlive its check.
 * - A redirect is an answer (3xx, not a success), never followed.
 * - Only the status is kept. The connection is closed as soon as the status line and
 *   headers are in (Node caps those at 16 KiB), so the body is never read: a receiver
 *   answering 400 MB, or a body that never ends, costs the worker nothing.
 * - `timeoutMs` bounds the whole attempt: connecting, TLS, sending and the status.
 */
export class HttpTransport implements WebhookTransport {
  /** `ca`: the certificates to trust instead of Node's bundled roots (a test's own authority). */
  constructor(private readonly options: { ca?: string } = {}) {}

  post(target: VettedUrl, headers: Record<string, string>, body: string, timeoutMs: number): Promise<TransportResult> {
    const started = performance.now();
    return new Promise((resolve) => {
      const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request: ClientRequest = send(this.requestOptions(target, headers, body), (response) =>
        settle({ status: response.statusCode ?? 0 }),
      );
      const deadline = setTimeout(() => settle({ error: `no answer within ${timeoutMs} ms` }), timeoutMs);
      // Only the first outcome counts; later errors come from closing the connection.
      function settle(outcome: { status: number } | { error: string }) {
        clearTimeout(deadline);
        request.destroy();
        resolve({ ...outcome, latencyMs: Math.round(performance.now() - started) });
      }
      request.on('error', () => settle({ error: 'connection failed' }));
      request.end(body);
    });
  }

  private requestOptions(target: VettedUrl, headers: Record<string, string>, body: string): RequestOptions {
    const { url } = target;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const secure = url.protocol === 'https:';
    return {
      method: 'POST',
      host,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      lookup: pinnedLookup(target.addresses),
      // An IP literal has no name to send or to check the certificate against but itself.
      ...(secure ? { servername: isIP(host) === 0 ? host : undefined, ca: this.options.ca } : {}),
    };
  }
}

/**
 * A DNS lookup that answers only the addresses the URL check approved, whatever it is
 * asked. An IP literal host is never looked up: it is the address the check approved.
 */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const answers = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter(({ family }) => wanted === 0 || family === wanted);
    const [first] = answers;
    if (first === undefined) {
      callback(Object.assign(new Error('no approved address of this family'), { code: 'ENOTFOUND' }), '', 0);
    } else if (options.all) {
      callback(null, answers);
    } else {
      callback(null, first.address, first.family);
    }
  };
}
