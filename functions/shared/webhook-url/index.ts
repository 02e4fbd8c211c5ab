import { ENV, optionalEnv } from '#shared/config';
import { port } from '#shared/dependencies';
import type { WebhookUrlPolicy } from './webhook-url-policy';
import { DnsWebhookUrlPolicy } from './webhook-url-policy';

export type { WebhookUrlPolicy, WebhookUrlVerdict } from './webhook-url-policy';

/**
 * Which webhook URLs are allowed, checked when a configuration is saved and again before
 * every delivery (DNS can change). Only the local runtime sets `ALLOW_LOOPBACK_WEBHOOKS`,
 * so `http://127.0.0.1:…` receivers work locally and never in AWS.
 */
export const webhookUrlPolicy = /* @__PURE__ */ port(
  'webhookUrlPolicy',
  () => new DnsWebhookUrlPolicy({ allowLoopbackHttp: optionalEnv(ENV.allowLoopbackWebhooks) === 'true' }),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    webhookUrlPolicy: WebhookUrlPolicy;
  }
}
