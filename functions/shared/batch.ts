import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { createLogger, type Logger } from './logger';

/**
 * Runs an SQS worker over a batch and reports the messages that failed, so only those are
 * retried (ReportBatchItemFailures) and, after the queue's maxReceiveCount, dead-lettered.
 * A message whose body does not parse fails too: it lands in the dead-letter queue for a
 * person to look at rather than disappearing.
 */
export async function processQueueBatch<S extends z.core.$ZodType>(
  event: SQSEvent,
  options: { worker: string; body: S },
  work: (body: z.output<S>, logger: Logger, record: SQSRecord) => Promise<void>,
): Promise<SQSBatchResponse> {
  const base = createLogger({ worker: options.worker });
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const logger = base.child({
      message_id: record.messageId,
      receive_count: record.attributes?.ApproximateReceiveCount,
    });
    try {
      const parsed = z.safeParse(options.body, JSON.parse(record.body));
      if (!parsed.success) throw new Error(`message body does not match the ${options.worker} schema`);
      await work(parsed.data, logger, record);
    } catch (error) {
      logger.error('message failed; it will be retried', { error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
