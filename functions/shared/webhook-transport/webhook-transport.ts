import type { VettedUrl } from '#domain/webhook-url';

/** What one POST to a partner's URL answered: a status, or why there was none. */
export type TransportResult = { status: number; latencyMs: number } | { error: string; latencyMs: number };

/**
 * Sends one webhook: a POST to `target.url` with the given headers and body over a
 * connection to one of `target.addresses` (those the URL check approved, never a fresh DNS
 * answer), cut at `timeoutMs`, never following redirects, keeping only the answer's status.
 */
export interface WebhookTransport {
  post(target: VettedUrl, headers: Record<string, string>, body: string, timeoutMs: number): Promise<TransportResult>;
}
