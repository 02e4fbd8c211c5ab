import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { webhookConfigurations } from '#shared/db/webhook-configurations/index';
import { unknownConfiguration } from './read-webhook-configurations';

/**
 * DELETE /webhooks/configurations/{id} (docs/api.md#webhook-configurations); another
 * tenant's id is unknown. With `keep` (HandlerRequest.answers), the request's answer is
 * written with the deletion.
 */
export async function deleteConfiguration(tenant: string, id: string, keep?: KeepAnswer<void>): Promise<void> {
  if (!(await webhookConfigurations().deleteConfiguration(tenant, id, keep))) throw unknownConfiguration();
}
