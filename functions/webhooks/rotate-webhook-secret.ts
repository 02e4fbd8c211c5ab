import { randomBytes } from 'node:crypto';
import { webhookSecrets } from '#shared/db/webhook-secrets/index';
import { now } from '#shared/dependencies';

// Creating or rotating the tenant's webhook signing secret (docs/api.md#signing-secret).

/** Standard Webhooks' form: `whsec_` and the base64 key; 24 random bytes is 192 bits, above its 128-bit floor. */
const SECRET_BYTES = 24;
export const newSigningSecret = (): string => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

/** Creates the secret, or rotates it: the one replaced keeps signing for 24 h. */
export async function rotateSigningSecret(tenant: string): Promise<{ secret: string; created_at: string }> {
  const secret = newSigningSecret();
  const { created_at } = await webhookSecrets().rotateSecret(tenant, secret, now());
  return { secret, created_at };
}
