import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processQueueBatch, type QueueWorkerOptions } from '#shared/batch';
import { invocation } from '#shared/invocation';
import { deliver, deliveryReads } from '../deliver';
import { deliveryMessage } from '../delivery-message';

const options: QueueWorkerOptions<typeof deliveryMessage> = {
  worker: 'webhook-delivery',
  body: deliveryMessage,
  parallel: true,
  tenantOf: (message) => message.tenant,
};
const DEFAULT_REMAINING_MS = 20_000;

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
    (message, logger, record) =>
      deliver(message, logger.child({ tenant: message.tenant }), reads, {
        // The message, received again, is the same holder of its claim; a copy of it is not.
        holder: record.messageId,
        // Lambda always passes a context; a test may not (the function's 20 s then).
        remainingMs: () => (context ? context.getRemainingTimeInMillis() : DEFAULT_REMAINING_MS),
      }),
    context,
  );
});
