import { cipher } from '#shared/cipher/index';
import { tableName } from '#shared/config';
import { documentClient, port } from '#shared/dependencies';
import { WebhookRepository } from './repository';

export type { ConfigurationFields } from './repository';
export { PREVIOUS_SECRET_TTL_MS, WebhookRepository } from './repository';

/** Webhook configurations and the signing secret on the service's table; tests may replace them. */
export const webhooks = port('webhooks', () => new WebhookRepository(documentClient(), tableName(), cipher));
