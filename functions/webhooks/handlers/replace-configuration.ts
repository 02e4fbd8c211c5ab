import { httpHandler } from '#shared/http/handler';
import { configurationIdParams } from '../path-params';
import { presentConfiguration } from '../present';
import { configurationBody } from '../request-schemas';
import { replaceConfiguration } from '../write-webhook-configuration';

/** PUT /webhooks/configurations/{id} — the configuration becomes exactly the body. */
export const handler = httpHandler(
  { params: configurationIdParams, body: configurationBody },
  async ({ tenant, clientId, scopes, params, body }) => {
    const configuration = await replaceConfiguration(tenant, { clientId, scopes }, params.id, body);
    return { body: { webhook_configuration: presentConfiguration(configuration) } };
  },
);
