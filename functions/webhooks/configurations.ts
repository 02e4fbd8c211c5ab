import { randomUUID } from 'node:crypto';
import { WEBHOOK_DATA_VERSION, type WebhookConfiguration } from '#domain/webhook-configuration';
import { webhooks } from '#shared/db/webhooks/index';
import { now } from '#shared/dependencies';
import { NotFoundError, ValidationError } from '#shared/errors';
import { webhookUrlPolicy } from '#shared/webhook-url/index';
import type { ConfigurationBody } from './schemas';

// The webhook configuration routes (docs/api.md#webhook-configurations); another tenant's id is unknown.

export async function createConfiguration(
  tenant: string,
  clientId: string,
  fields: ConfigurationBody,
): Promise<WebhookConfiguration> {
  await requireAllowedUrl(fields.url);
  const at = now().toISOString();
  const configuration: WebhookConfiguration = {
    id: randomUUID(),
    tenant,
    url: fields.url,
    event_types: fields.event_types,
    enabled: fields.enabled,
    data_version: WEBHOOK_DATA_VERSION,
    created_at: at,
    created_by: clientId,
    updated_at: at,
    updated_by: clientId,
    version: 1,
  };
  await webhooks().createConfiguration(configuration);
  return configuration;
}

export function listConfigurations(tenant: string): Promise<WebhookConfiguration[]> {
  return webhooks().configurations(tenant);
}

export async function replaceConfiguration(
  tenant: string,
  clientId: string,
  id: string,
  fields: ConfigurationBody,
): Promise<WebhookConfiguration> {
  await requireAllowedUrl(fields.url);
  const replaced = await webhooks().replaceConfiguration(tenant, id, fields, clientId, now());
  if (!replaced) throw unknownConfiguration();
  return replaced;
}

export async function deleteConfiguration(tenant: string, id: string): Promise<void> {
  if (!(await webhooks().deleteConfiguration(tenant, id))) throw unknownConfiguration();
}

/** Deliveries must not reach the service's own network (SSRF); the policy says why a URL is refused. */
async function requireAllowedUrl(url: string): Promise<void> {
  const verdict = await webhookUrlPolicy().check(url);
  if (!verdict.ok) throw new ValidationError('invalid_url', `url ${verdict.reason}`);
}

const unknownConfiguration = () =>
  new NotFoundError('unknown_id_webhook_configuration', 'no webhook configuration has this id');
