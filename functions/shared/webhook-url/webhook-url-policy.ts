/**
 * Decides whether the service may send webhooks to a URL (server-side request forgery:
 * a partner must not point deliveries at the service's own network). The URL's syntax is
 * already checked by the request schema.
 */
export type WebhookUrlVerdict = { ok: true } | { ok: false; reason: string };

export interface WebhookUrlPolicy {
  check(url: string): Promise<WebhookUrlVerdict>;
}

/**
 * TEMPORARY — replace with `checkWebhookUrl(url, { allowLoopbackHttp, resolve })` from
 * `#domain/webhook-url` (the address check: private, loopback and link-local addresses
 * refused after DNS resolution), with `resolve: (host) => dns.promises.lookup(host, { all: true })`,
 * once that function is merged. Until then only the scheme is checked: `https:`, or
 * `http:` on a loopback host when `allowLoopbackHttp` (the local runtime).
 */
export class SchemeOnlyWebhookUrlPolicy implements WebhookUrlPolicy {
  constructor(private readonly options: { allowLoopbackHttp: boolean }) {}

  async check(url: string): Promise<WebhookUrlVerdict> {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'https:') return { ok: true };
    if (protocol === 'http:' && this.options.allowLoopbackHttp && isLoopbackHost(hostname)) return { ok: true };
    return {
      ok: false,
      reason: this.options.allowLoopbackHttp
        ? 'must use https (http is accepted on loopback addresses only)'
        : 'must use https',
    };
  }
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
