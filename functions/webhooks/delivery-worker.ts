import * as z from 'zod/mini';
import { queueWorker } from '#shared/batch';
import { deliver } from './deliver';

/** Webhook-deliveries queue message. */
export const deliveryMessage = z.object({
  tenant: z.string().check(z.minLength(1)),
  event_id: z.uuid(),
  configuration_id: z.uuid(),
  attempt: z.number().check(z.int(), z.minimum(1)),
  remaining_seconds: z.optional(z.number().check(z.minimum(0))),
  exhausted: z.optional(z.boolean()),
  redelivery: z.optional(z.uuid()),
});

/** Delivers webhooks from the webhook-deliveries queue, one attempt per message. */
export const handler = queueWorker(
  { worker: 'webhook-delivery', body: deliveryMessage, parallel: true },
  (message, logger) => deliver(message, logger.child({ tenant: message.tenant })),
);
