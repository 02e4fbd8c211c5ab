import {
  configurationResponse,
  configurationsResponse,
  webhookSecretResponse,
} from '#functions/webhooks/openapi-responses';
import * as examples from '../examples/webhooks';
import type { OperationSpec } from './types';

const configurationId = {
  id: 'The configuration’s id. Unknown, another tenant’s or malformed: `404 unknown_id_webhook_configuration`.',
};

/** The OpenAPI words of lib/service/webhooks.ts's routes, by route id. */
export const WEBHOOK_OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  InvokeWebhook: {
    operationId: 'post-invoke',
    summary: 'Send a test event',
    description:
      'Sends a test event of `event_type`, any kind of Orum’s trigger schema (also those the service never emits: `person_unverified`, `business_*`, `external_account_*`, `transfer_updated`, `subledger_created`, `book_transfer_updated`), to the tenant’s configurations through the real delivery path (it shows in the event log). `data` is the record to carry, under the name its kind gives (`event_data.person`, `.account`, `.business`, `.external_account`, `.transfer`, `.subledger`, `.book_transfer`); without it, a generated sample of that record. `data` may not hold a key named `ssn`, `social_security_number`, `tax_id` or `statement_code` (case, `_` and `-` aside; `ssn_match`, `tax_id_match` pass), nor nest more than 16 levels (`400 invalid_data`). The event carries `test: true` in its envelope (signed with the rest of the body; Orum has no such field), and the event log lists it only with `test=true`. Paced with redelivery, one budget per tenant: 10 at once, then one a second (`429 invoke_rate_exceeded`, `Retry-After`).',
    tag: 'Webhooks',
    requestBody: { name: 'TestEventRequest', examples: examples.INVOKE_REQUESTS },
    success: { status: 201, description: 'The test event was stored and goes out.' },
    errors: { 429: ['invoke_rate_exceeded'] },
  },
  CreateWebhookConfiguration: {
    operationId: 'post-webhook-configuration',
    summary: 'Create a webhook configuration',
    description:
      'At most 10 per tenant. `event_types` may name only kinds the token reads (`read:persons` for `person_*` and `person_all`, `read:verify-accounts` for `verify_account_updated`; `subscribe_all` takes every scope that reads a kind, `invoke:webhook` included), else `403 insufficient_scope`; the configuration keeps those scopes and is delivered only the kinds they read. `url` must be `https://` on port 443 to a host whose every address is public (the local runtime also accepts `http://` and any port on loopback); else `400 invalid_url`.',
    tag: 'Webhooks',
    requestBody: { name: 'ConfigurationRequest', examples: { configuration: examples.CONFIGURATION_REQUEST } },
    success: {
      status: 200,
      description: 'The configuration.',
      body: configurationResponse,
      examples: { one: examples.CONFIGURATION_RESPONSES.one },
    },
    errors: { 403: ['insufficient_scope'], 409: ['too_many_webhook_configurations'] },
  },
  ListWebhookConfigurations: {
    operationId: 'get-webhook-configurations',
    summary: 'List webhook configurations',
    description: 'All of the tenant’s configurations, newest first (no paging).',
    tag: 'Webhooks',
    success: {
      status: 200,
      description: 'Every configuration.',
      body: configurationsResponse,
      examples: { all: examples.CONFIGURATION_RESPONSES.all },
    },
  },
  ReplaceWebhookConfiguration: {
    operationId: 'put-webhook-configurations',
    summary: 'Replace a webhook configuration',
    description:
      'The configuration becomes exactly the body (all three fields) and keeps the replacing token’s scopes; `event_types` and `url` follow the rules of create (`403 insufficient_scope` for a kind the token does not read).',
    tag: 'Webhooks',
    parameters: configurationId,
    requestBody: { name: 'ConfigurationRequest' },
    success: { status: 200, description: 'The configuration.', body: configurationResponse },
    errors: { 403: ['insufficient_scope'], 404: ['unknown_id_webhook_configuration'] },
  },
  DeleteWebhookConfiguration: {
    operationId: 'delete-webhook-configurations',
    summary: 'Delete a webhook configuration',
    description: 'Nothing more is delivered to it.',
    tag: 'Webhooks',
    parameters: configurationId,
    success: { status: 204, description: 'Deleted.' },
    errors: { 404: ['unknown_id_webhook_configuration'] },
  },
  CreateWebhookSecret: {
    operationId: 'post-webhook-secret',
    summary: 'Create or rotate the signing secret',
    description:
      'A new Standard Webhooks signing secret. The previous one keeps signing beside it for 24 hours (two signatures per delivery). The answer is never stored, so an `Idempotency-Key` is not replayed: read the current secret with `GET /webhooks/secret` rather than retrying.',
    tag: 'Webhooks',
    requestBody: { name: 'EmptyRequest', description: 'No fields: an empty body or `{}`.' },
    success: {
      status: 200,
      description: 'The new secret.',
      body: webhookSecretResponse,
      examples: { secret: examples.SECRET_RESPONSE },
      noStore: true,
    },
    errors: { 409: ['concurrent_update'] },
  },
  GetWebhookSecret: {
    operationId: 'get-webhook-secret',
    summary: 'Get the signing secret',
    description: 'The current signing secret.',
    tag: 'Webhooks',
    success: {
      status: 200,
      description: 'The current secret.',
      body: webhookSecretResponse,
      examples: { secret: examples.SECRET_RESPONSE },
      noStore: true,
    },
    errors: { 404: ['unknown_webhook_secret'] },
  },
};
