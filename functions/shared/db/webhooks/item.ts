import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { ENTITY } from '../entities';
import { withoutStorageFields } from '../items';
import { webhookKeys } from './keys';

export const configurationItem = (configuration: WebhookConfiguration): Record<string, unknown> => ({
  ...webhookKeys.configuration(configuration.tenant, configuration.id),
  entity: ENTITY.webhookConfiguration,
  ...configuration,
});

export const toConfiguration = (item: Record<string, unknown>): WebhookConfiguration =>
  withoutStorageFields(item) as unknown as WebhookConfiguration;

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
export const secretContext = (tenant: string) => ({ tenant, purpose: 'webhook_signing_secret' });
