import { httpHandler } from '#shared/http/handler';
import { deleteConfiguration } from '../configurations';
import { configurationIdParams } from '../path-params';

/** DELETE /webhooks/configurations/{id} — 204, no body, as Orum answers. */
export const handler = httpHandler({ params: configurationIdParams }, async ({ tenant, params }) => {
  await deleteConfiguration(tenant, params.id);
  return { statusCode: 204 };
});
