import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { WebhookRepository } from './repository';

export type { ConfigurationFields } from './repository';
export { WebhookRepository } from './repository';

/** Webhook configurations on the service's table; tests may replace them. The signing secret is `../webhook-secrets`. */
export const webhooks = /* @__PURE__ */ port('webhooks', () => new WebhookRepository(documentClient(), tableName()));

declare module '#shared/dependencies' {
  interface Dependencies {
    webhooks: WebhookRepository;
  }
}
