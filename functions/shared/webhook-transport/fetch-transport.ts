import type { TransportResult, WebhookTransport } from './webhook-transport';

/**
 * Node's fetch: the request is aborted at the timeout, a redirect is an answer (3xx, not
 * a success) rather than followed (it could lead to an address the URL check refused),
 * and the response body is read only to free the connection.
 */
export class FetchTransport implements WebhookTransport {
  async post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<TransportResult> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status, latencyMs: latencyMs() };
    } catch (error) {
      const name = (error as Error).name;
      const reason =
        name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : 'connection failed';
      return { error: reason, latencyMs: latencyMs() };
    }
  }
}
