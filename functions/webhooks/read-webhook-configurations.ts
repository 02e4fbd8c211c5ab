import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { webhookConfigurations } from '#shared/db/webhook-configurations/index';
import { NotFoundError } from '#shared/errors';

// Reading webhook configurations (docs/api.md#webhook-configurations): the tenant's, newest
// first. Apart from their writes, so GET /webhooks/configurations bundles neither the URL
// check nor the subscription rules it never uses; another tenant's id is unknown.

export function listConfigurations(tenant: string): Promise<WebhookConfiguration[]> {
  return webhookConfigurations().configurations(tenant);
}

export const unknownConfiguration = () =>
  new NotFoundError('unknown_id_webhook_configuration', 'no webhook configuration has this id');
