import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { invocation } from './invocation';
import { createLogger, type Logger } from './logger';
import { flushMetrics } from './metrics';
import { actingFor } from './tenant-scope';

export interface QueueWorkerOptions<S extends z.core.$ZodType> {
  /** The worker's name on its log lines. */
  worker: string;
  /** The message body's schema; a body that does not match fails its message. */
  body: S;
  /**
   * Process the batch's messages side by side instead of in order: only for messages that
   * never touch the same record (webhook deliveries: one event to one configuration each),
   * so a slow one does not delay the others and a batch costs one invocation.
   */
  parallel?: boolean;
  /**
   * The tenant a message's work acts for (#shared/tenant-scope), named by its body; none
   * for a worker whose messages cover many tenants (a screening shard).
   */
  tenantOf?: (body: z.output<S>) => string;
}

export type QueueWork<S extends z.core.$ZodType> = (
  body: z.output<S>,
  logger: Logger,
  record: SQSRecord,
) => Promise<void>;

/**
 * An SQS worker's Lambda handler: each message of the batch goes to `work`, its body
 * parsed with `body`, and the messages that fail are reported (see `processQueueBatch`).
 *
 * @example
 * // functions/persons/handlers/identification-worker.ts
 * import { queueWorker } from '#shared/batch';
 * import { identificationMessage } from '../identification-message';
 * import { identifyPerson } from '../identify-person';
 *
 * export const handler = queueWorker(
 *   { worker: 'identification-worker', body: identificationMessage, tenantOf: (message) => message.tenant },
 *   (message, logger) => identifyPerson(message, logger.child({ tenant: message.tenant, person_id: message.id })),
 * );
 */
export function queueWorker<S extends z.core.$ZodType>(
  options: QueueWorkerOptions<S>,
  work: QueueWork<S>,
): (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse> {
  return invocation<SQSEvent, SQSBatchResponse>((event, context) => processQueueBatch(event, options, work, context));
}

/**
 * Runs an SQS worker over a batch with Powertools' BatchProcessor and reports the messages
 * that failed, so only those are retried (ReportBatchItemFailures) and, after the queue's
 * maxReceiveCount, dead-lettered. A message whose body does not parse fails too: it lands
 * in the dead-letter queue for a person to look at rather than disappearing. A batch in
 * which every message failed is answered like any other (`throwOnFullBatchFailure: false`):
 * all of its messages are reported, none is lost to a thrown error.
 *
 * Messages are processed one after another, in the batch's order (`processInParallel:
 * false`; Powertools' default is parallel) unless the worker declares them independent: two messages about one account or person in a
 * batch would otherwise race each other's optimistic lock, and each message's metrics are
 * written when it ends, carrying its own metadata.
 */
export async function processQueueBatch<S extends z.core.$ZodType>(
  event: SQSEvent,
  options: QueueWorkerOptions<S>,
  work: QueueWork<S>,
  context?: Context,
): Promise<SQSBatchResponse> {
  const base = createLogger({ worker: options.worker });
  const handleRecord = async (record: SQSRecord): Promise<void> => {
    const logger = base.child({
      message_id: record.messageId,
      receive_count: record.attributes?.ApproximateReceiveCount,
    });
    try {
      const parsed = z.safeParse(options.body, JSON.parse(record.body));
      if (!parsed.success) throw new Error(`message body does not match the ${options.worker} schema`);
      const tenant = options.tenantOf?.(parsed.data);
      await (tenant === undefined
        ? work(parsed.data, logger, record)
        : actingFor(tenant, () => work(parsed.data, logger, record)));
    } catch (error) {
      logger.error('message failed; it will be retried', { error });
      throw error;
    } finally {
      flushMetrics();
    }
  };
  // A processor per batch: it keeps the batch's records and failures on itself, and the
  // local runtime runs several batches side by side in one process.
  const processor = new BatchProcessor(EventType.SQS);
  return processPartialResponse(event, handleRecord, processor, {
    context,
    throwOnFullBatchFailure: false,
    processInParallel: options.parallel === true,
  });
}
