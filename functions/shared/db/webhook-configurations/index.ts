import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { WebhookConfigurationRepository } from './repository';

export type { ConfigurationFields } from './repository';
export { WebhookConfigurationRepository } from './repository';

/** Webhook configurations on the service's table; tests may replace them. The signing secret is `../webhook-secrets`. */
export const webhookConfigurations = /* @__PURE__ */ port(
  'webhookConfigurations',
  () => new WebhookConfigurationRepository(documentClient(), tableName()),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    webhookConfigurations: WebhookConfigurationRepository;
  }
}
