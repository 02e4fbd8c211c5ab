import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { processQueueBatch } from '#shared/batch';
import { invocation } from '#shared/invocation';
import { deliver, deliveryReads } from './deliver';

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

const options = { worker: 'webhook-delivery', body: deliveryMessage, parallel: true };

/**
 * Delivers webhooks from the webhook-deliveries queue, one attempt per message, the
 * batch's messages side by side. What they share is read once per tenant per batch: a
 * `queueWorker` whose work also gets the batch's reads.
 */
export const handler = invocation<SQSEvent, SQSBatchResponse>((event, context) => {
  const reads = deliveryReads();
  return processQueueBatch(
    event,
    options,
    (message, logger) => deliver(message, logger.child({ tenant: message.tenant }), reads),
    context,
  );
});
