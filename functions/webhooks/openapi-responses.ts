import * as z from 'zod/mini';
import { WEBHOOK_DATA_VERSION } from '#domain/webhook-configuration';
import { SECRET_PREFIX } from '#domain/webhook-signing';
import { id, timestamp } from '#shared/openapi-responses';
import { EVENT_TYPE_SELECTORS } from './request-schemas';

// What the webhook routes answer (docs/api.md#webhooks), as Orum's `WebhookConfiguration`
// names it; the presenter (present.ts) builds it. Not imported by handlers: see
// #shared/openapi-responses.

export const eventTypeSelector = z
  .enum(EVENT_TYPE_SELECTORS as [string, ...string[]])
  .check(
    z.describe(
      'An event kind the service emits, `subscribe_all` (every kind, future ones included) or `person_all` (every `person_*` kind).',
    ),
  );

export const webhookConfiguration = z
  .strictObject({
    id: id(),
    enterprise_name: z.string().check(z.describe('The tenant.')),
    data_version: z.enum([WEBHOOK_DATA_VERSION]),
    event_types: z.array(eventTypeSelector),
    enabled: z.boolean(),
    url: z.string(),
    created_at: timestamp(),
    created_by: z.string().check(z.describe('The `client_id` of the token that created it.')),
    updated_at: timestamp(),
    updated_by: z.string().check(z.describe('The `client_id` of the token that last replaced it.')),
  })
  .check(z.describe('Where, and which, events are delivered.'));

export const configurationResponse = z.strictObject({ webhook_configuration: webhookConfiguration });
export const configurationsResponse = z.strictObject({
  webhook_configurations: z.array(webhookConfiguration).check(z.describe('All of them (at most 10), newest first.')),
});

export const webhookSecretResponse = z
  .strictObject({
    webhook_secret: z.strictObject({
      secret: z
        .string()
        .check(
          z.startsWith(SECRET_PREFIX),
          z.describe('Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes.'),
        ),
      created_at: timestamp(),
    }),
  })
  .check(
    z.describe('The tenant’s webhook signing secret (Standard Webhooks; Orum signs with an RSA key pair instead).'),
  );

export const WEBHOOK_COMPONENTS = {
  WebhookConfiguration: webhookConfiguration,
  ConfigurationResponse: configurationResponse,
  ConfigurationsResponse: configurationsResponse,
  EventType: eventTypeSelector,
  WebhookSecretResponse: webhookSecretResponse,
};
