import type { WebhookConfiguration } from '#domain/webhook-configuration';

/** A configuration as partners see it: Orum's WebhookConfiguration, every field required there. */
export function presentConfiguration(configuration: WebhookConfiguration) {
  return {
    id: configuration.id,
    enterprise_name: configuration.tenant,
    data_version: configuration.data_version,
    event_types: configuration.event_types,
    enabled: configuration.enabled,
    url: configuration.url,
    created_at: configuration.created_at,
    created_by: configuration.created_by,
    updated_at: configuration.updated_at,
    updated_by: configuration.updated_by,
  };
}

export const presentSecret = (secret: { secret: string; created_at: string }) => ({
  secret: secret.secret,
  created_at: secret.created_at,
});

/** Secrets must not sit in a cache, nor in an idempotency record (functions/shared/http/idempotency.ts). */
export const SECRET_HEADERS = { 'cache-control': 'no-store' } as const;
