/**
 * The signing secret as stored: ciphertexts only. `previous_secret` is the secret before
 * the last rotation, still signing until `previous_expires_at`.
 */
export interface SecretItem {
  tenant: string;
  current_secret: string;
  created_at: string;
  previous_secret?: string;
  previous_expires_at?: string;
  version: number;
}

/**
 * The cipher context of a tenant's signing secrets. It names no slot (current or
 * previous), so a rotation moves the current ciphertext to `previous_secret` as it is.
 */
export const secretContext = (tenant: string) => ({ tenant, purpose: 'webhook_signing_secret' as const });
