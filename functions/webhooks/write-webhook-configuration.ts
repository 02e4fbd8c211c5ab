import { WEBHOOK_DATA_VERSION, type WebhookConfiguration } from '#domain/webhook-configuration';
import { createUnder } from '#shared/created-id';
import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { webhookConfigurations } from '#shared/db/webhook-configurations/index';
import { now } from '#shared/dependencies';
import { ValidationError } from '#shared/errors';
import type { HandlerRequest } from '#shared/http/types';
import type { Scope } from '#shared/scopes';
import { webhookUrlPolicy } from '#shared/webhook-url/index';
import { unknownConfiguration } from './read-webhook-configurations';
import type { ConfigurationBody } from './request-schemas';
import { subscriptionScopes } from './subscriptions';

// Saving a webhook configuration: create and replace (docs/api.md#webhook-configurations);
// another tenant's id is unknown. A configuration subscribes only to kinds the token saving
// it reads, checked before its URL (no DNS lookup for a refused request), and keeps those
// scopes.

/** Who saves a configuration: the token's client id and scopes. */
interface Saver {
  clientId: string;
  scopes: readonly Scope[];
}

/**
 * POST /webhooks/configurations. With an `Idempotency-Key` (`request`), the configuration's
 * id comes from the key (#shared/created-id): a retry of a create whose answer was lost
 * answers the configuration that create made, rather than making a second one that would
 * deliver every event twice; and the request's answer is written with the configuration
 * (`keep`, HandlerRequest.answers).
 */
export async function createConfiguration(
  tenant: string,
  { clientId, scopes }: Saver,
  fields: ConfigurationBody,
  request?: HandlerRequest['idempotency'],
  keep?: KeepAnswer<WebhookConfiguration>,
): Promise<WebhookConfiguration> {
  const saved = subscriptionScopes(fields.event_types, scopes);
  await requireAllowedUrl(fields.url);
  const created = now();
  const at = created.toISOString();
  return createUnder(request, (id, fingerprint) => {
    const configuration: WebhookConfiguration = {
      id,
      tenant,
      url: fields.url,
      event_types: fields.event_types,
      enabled: fields.enabled,
      data_version: WEBHOOK_DATA_VERSION,
      created_at: at,
      created_by: clientId,
      updated_at: at,
      updated_by: clientId,
      scopes: saved,
      version: 1,
    };
    return webhookConfigurations().createConfiguration(configuration, created, fingerprint, keep);
  });
}

/** PUT /webhooks/configurations/{id}: the configuration becomes exactly `fields`. */
export async function replaceConfiguration(
  tenant: string,
  { clientId, scopes }: Saver,
  id: string,
  fields: ConfigurationBody,
): Promise<WebhookConfiguration> {
  const saved = subscriptionScopes(fields.event_types, scopes);
  await requireAllowedUrl(fields.url);
  const replaced = await webhookConfigurations().replaceConfiguration(
    tenant,
    id,
    { ...fields, scopes: saved },
    clientId,
    now(),
  );
  if (!replaced) throw unknownConfiguration();
  return replaced;
}

/** Deliveries must not reach the service's own network (SSRF); the policy says why a URL is refused. */
async function requireAllowedUrl(url: string): Promise<void> {
  const verdict = await webhookUrlPolicy().check(url);
  if (!verdict.ok) throw new ValidationError('invalid_url', `url ${verdict.reason}`);
}
