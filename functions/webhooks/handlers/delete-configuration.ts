import { httpHandler } from '#shared/http/handler';
import type { Reply } from '#shared/http/types';
import { deleteConfiguration } from '../delete-webhook-configuration';
import { configurationIdParams } from '../path-params';

const answer = (): Reply => ({ statusCode: 204 });

/** DELETE /webhooks/configurations/{id} — 204, no body, as Orum answers. */
export const handler = httpHandler({ params: configurationIdParams }, async ({ tenant, params, answers }) => {
  await deleteConfiguration(tenant, params.id, answers?.of(answer));
  return answer();
});
