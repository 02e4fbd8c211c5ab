import { lookup } from 'node:dns/promises';
import { checkWebhookUrl } from '#domain/webhook-url';

/**
 * Decides whether the service may send webhooks to a URL (server-side request forgery:
 * a partner must not point deliveries at the service's own network). The URL's syntax is
 * already checked by the request schema.
 */
export type WebhookUrlVerdict = { ok: true } | { ok: false; reason: string };

export interface WebhookUrlPolicy {
  check(url: string): Promise<WebhookUrlVerdict>;
}

/** Every address a host name resolves to (IPv4 and IPv6), as the system resolver answers. */
const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);

/**
 * `https:` to hosts that resolve to public addresses only (`checkWebhookUrl`), or, where
 * `allowLoopbackHttp` (the local runtime), also `http:` to loopback receivers.
 */
export class DnsWebhookUrlPolicy implements WebhookUrlPolicy {
  constructor(
    private readonly options: { allowLoopbackHttp: boolean; resolve?: (host: string) => Promise<string[]> },
  ) {}

  async check(url: string): Promise<WebhookUrlVerdict> {
    const verdict = await checkWebhookUrl(url, {
      allowLoopbackHttp: this.options.allowLoopbackHttp,
      resolve: this.options.resolve ?? systemResolve,
    });
    return verdict.ok ? { ok: true } : { ok: false, reason: verdict.reason };
  }
}
