import { httpHandler } from '#shared/http/handler';
import { presentConfiguration } from '../present';
import { listConfigurations } from '../read-webhook-configurations';

/** GET /webhooks/configurations — all of the tenant's (at most 10), newest first; no paging, as Orum. */
export const handler = httpHandler({}, async ({ tenant }) => {
  const configurations = await listConfigurations(tenant);
  return { body: { webhook_configurations: configurations.map(presentConfiguration) } };
});
