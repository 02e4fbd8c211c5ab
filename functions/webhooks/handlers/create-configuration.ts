import { httpHandler } from '#shared/http/handler';
import { createConfiguration } from '../configurations';
import { presentConfiguration } from '../present';
import { configurationBody } from '../request-schemas';

/** POST /webhooks/configurations — at most 10 per tenant (409 too_many_webhook_configurations). */
export const handler = httpHandler(
  { body: configurationBody },
  async ({ tenant, clientId, scopes, body, idempotency }) => {
    const configuration = await createConfiguration(tenant, { clientId, scopes }, body, idempotency);
    return { body: { webhook_configuration: presentConfiguration(configuration) } };
  },
);
