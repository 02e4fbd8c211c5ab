import { port } from '#shared/dependencies';
import { HttpTransport } from './http-transport';
import type { WebhookTransport } from './webhook-transport';

/** Webhooks go out over Node's HTTP client, to the addresses their URL check approved; tests may replace the transport. */
export const webhookTransport = /* @__PURE__ */ port('webhookTransport', () => new HttpTransport());

declare module '#shared/dependencies' {
  interface Dependencies {
    webhookTransport: WebhookTransport;
  }
}
