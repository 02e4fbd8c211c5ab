import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { ENTITY } from '../entities';
import { withoutStorageFields } from '../items';
import { webhookConfigurationKeys } from './keys';

export const configurationItem = (configuration: WebhookConfiguration): Record<string, unknown> => ({
  ...webhookConfigurationKeys.configuration(configuration.tenant, configuration.id),
  entity: ENTITY.webhookConfiguration,
  ...configuration,
});

export const toConfiguration = (item: Record<string, unknown>): WebhookConfiguration =>
  withoutStorageFields(item) as unknown as WebhookConfiguration;
