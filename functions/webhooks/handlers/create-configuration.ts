import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { presentConfiguration } from '../present';
import { configurationBody } from '../request-schemas';
import { createConfiguration } from '../write-webhook-configuration';

const answer = (configuration: WebhookConfiguration): Reply => ({
  body: { webhook_configuration: presentConfiguration(configuration) },
});

/** POST /webhooks/configurations — at most 10 per tenant (409 too_many_webhook_configurations). */
export const handler = httpHandler(
  { body: configurationBody },
  async ({ tenant, clientId, scopes, body, idempotency, answers }) =>
    answer(await createConfiguration(tenant, { clientId, scopes }, body, idempotency, answers?.of(answer))),
);
