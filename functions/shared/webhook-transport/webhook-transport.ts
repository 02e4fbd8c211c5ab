/** What one POST to a partner's URL answered: a status, or why there was none. */
export type TransportResult = { status: number; latencyMs: number } | { error: string; latencyMs: number };

/** Sends one webhook: a POST with the given headers and body, cut at `timeoutMs`, never following redirects. */
export interface WebhookTransport {
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<TransportResult>;
}
