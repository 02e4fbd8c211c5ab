import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { events } from '#shared/db/events/index';
import { invocation } from '#shared/invocation';
import { createLogger, type Logger } from '#shared/logger';
import { messageQueue } from '#shared/queue/index';
import type { StreamAction } from '#shared/stream/rules';
import { fanOut } from '../webhooks/fan-out';
import { actionsFor } from './stream-rules';

/**
 * Table stream → queues (docs/api.md#events). Each record goes to its entity's stream
 * rules (./stream-rules.ts); the router performs what they ask and knows no area's
 * records. Records are handled in order; at the first failure the rest of the batch is
 * reported failed from that record on, so Lambda retries from there
 * (ReportBatchItemFailures) and, after its retries, sends the batch's description to the
 * on-failure destination. Every action is safe to repeat: events are stored once per id,
 * and a delivery fanned out again is dropped by the delivery worker once attempted.
 */
export const handler = invocation<DynamoDBStreamEvent, DynamoDBBatchResponse>(async (event) => {
  const logger = createLogger({ worker: 'stream-router' });
  for (const record of event.Records) {
    try {
      for (const action of actionsOf(record)) await perform(action, logger);
    } catch (error) {
      logger.error('stream record failed; the batch resumes here on retry', {
        error,
        sequence_number: record.dynamodb?.SequenceNumber,
      });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
});

function actionsOf(record: DynamoDBRecord): StreamAction[] {
  const image = (raw: unknown) => (raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined);
  return actionsFor(record.eventName, image(record.dynamodb?.OldImage), image(record.dynamodb?.NewImage));
}

async function perform(action: StreamAction, logger: Logger): Promise<void> {
  switch (action.kind) {
    case 'enqueue':
      await messageQueue().send(action.queue, [action.message]);
      return;
    case 'record-event': {
      const stored = await events().store(action.tenant, action.envelope);
      if (!stored) logger.info('event already stored', { event_id: action.envelope.event_id });
      return;
    }
    case 'publish-event':
      await fanOut({ tenant: action.tenant, event_id: action.eventId, event_type: action.eventType });
      return;
  }
}
