import { ENV, optionalEnv } from '#shared/config';
import { port } from '#shared/dependencies';
import { SchemeOnlyWebhookUrlPolicy } from './webhook-url-policy';

export type { WebhookUrlPolicy, WebhookUrlVerdict } from './webhook-url-policy';

/**
 * Which webhook URLs are allowed. Only the local runtime sets `ALLOW_LOOPBACK_WEBHOOKS`,
 * so `http://127.0.0.1:…` receivers work locally and never in AWS.
 * TEMPORARY adapter: see SchemeOnlyWebhookUrlPolicy — switch to `checkWebhookUrl`.
 */
export const webhookUrlPolicy = port(
  'webhookUrlPolicy',
  () => new SchemeOnlyWebhookUrlPolicy({ allowLoopbackHttp: optionalEnv(ENV.allowLoopbackWebhooks) === 'true' }),
);
