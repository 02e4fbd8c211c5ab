import { lookup } from 'node:dns/promises';
import { checkWebhookUrl, type WebhookUrlCheck } from '#domain/webhook-url';

// Decides whether the service may send webhooks to a URL (server-side request forgery:
// a partner must not point deliveries at the service's own network). The URL's syntax is
// already checked by the request schema. An approval carries the addresses checked: a
// delivery connects to those and to no other answer DNS gives later.

export type WebhookUrlVerdict = WebhookUrlCheck;

export interface WebhookUrlPolicy {
  check(url: string): Promise<WebhookUrlVerdict>;
}

/** Every address a host name resolves to (IPv4 and IPv6), as the system resolver answers. */
const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);

/**
 * `https:` on port 443 to hosts that resolve to public addresses only (`checkWebhookUrl`),
 * or, where `allowLoopbackHttp` (the local runtime), also `http:` and any port to loopback
 * receivers.
 */
export class DnsWebhookUrlPolicy implements WebhookUrlPolicy {
  constructor(
    private readonly options: { allowLoopbackHttp: boolean; resolve?: (host: string) => Promise<string[]> },
  ) {}

  check(url: string): Promise<WebhookUrlVerdict> {
    return checkWebhookUrl(url, {
      allowLoopbackHttp: this.options.allowLoopbackHttp,
      resolve: this.options.resolve ?? systemResolve,
    });
  }
}
