import { cipher } from '#shared/cipher/index';
import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { port } from '#shared/dependencies';
import { WebhookSecretRepository } from './repository';

export { PREVIOUS_SECRET_TTL_MS, type SigningSecrets, WebhookSecretRepository } from './repository';

/** Tenants' webhook signing secrets on the service's table, through the cipher; tests may replace them. */
export const webhookSecrets = /* @__PURE__ */ port(
  'webhookSecrets',
  () => new WebhookSecretRepository(documentClient(), tableName(), cipher),
);

declare module '#shared/dependencies' {
  interface Dependencies {
    webhookSecrets: WebhookSecretRepository;
  }
}
