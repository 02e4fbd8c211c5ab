import { webhookSecrets } from '#shared/db/webhook-secrets/index';
import { NotFoundError } from '#shared/errors';

// Reading the tenant's webhook signing secret (docs/api.md#signing-secret).

export async function currentSigningSecret(tenant: string): Promise<{ secret: string; created_at: string }> {
  const current = await webhookSecrets().currentSecret(tenant);
  if (!current) {
    throw new NotFoundError(
      'unknown_webhook_secret',
      'this tenant has no webhook signing secret yet; create one with POST /webhooks/secret',
    );
  }
  return current;
}
