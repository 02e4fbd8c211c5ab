import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { WebhookConfiguration } from '#domain/webhook-configuration';
import { configurationsPerBatch, type OncePerTenant } from '#functions/webhooks/batch-reads';
import { deliveriesOf } from '#functions/webhooks/fan-out';
import { storedEvents } from '#shared/db/stored-events/index';
import { invocation } from '#shared/invocation';
import { createLogger, type Logger } from '#shared/logger';
import type { AddressedMessage } from '#shared/queue/message-queue';
import type { StreamAction } from '#shared/stream/rules';
import { actingFor } from '#shared/tenant-scope';
import { PendingSends } from '../pending-sends';
import { actionsFor } from '../stream-rules';

/**
 * Table stream → queues (docs/api.md#events). Each record goes to its entity's stream
 * rules (./stream-rules.ts); the router performs what they ask and knows no area's
 * records. The queue messages the records ask for (work messages,
 * a stored event's deliveries) are held and sent together at the end of the batch
 * (./pending-sends.ts), so a batch costs a few SQS requests rather than one per record,
 * and a tenant's webhook configurations are read once per batch for all its events
 * (../webhooks/batch-reads.ts).
 *
 * Records are performed a few at a time (their table work overlaps), their messages held
 * in the records' order. At the first record that fails nothing after it is sent (the few
 * records started after it may have stored their events), the messages of the records
 * before it are still sent, and it is reported failed (ReportBatchItemFailures):
 * Lambda resumes there and, after its retries, sends the batch's description to the
 * on-failure destination. When the sending fails, the earliest record with a held message
 * is reported instead (it always comes before a failed record). Every action is safe to
 * repeat: work messages are idempotent at their consumer, events are stored once per id,
 * and a delivery fanned out again is dropped by the delivery worker once attempted.
 */
export const handler = invocation<DynamoDBStreamEvent, DynamoDBBatchResponse>(async (event) => {
  const logger = createLogger({ worker: 'stream-router' });
  const pending = new PendingSends();
  const scope: BatchScope = { logger, configurations: configurationsPerBatch() };
  let failure = await handleInOrder(event.Records, pending, scope);
  try {
    await pending.flush();
  } catch (error) {
    // A failed record's own error is not lost: the retry, which starts before it, meets it again.
    failure = { sequenceNumber: pending.earliest ?? '', error };
  }
  if (!failure) return { batchItemFailures: [] };
  logger.error('stream record failed; the batch resumes here on retry', {
    error: failure.error,
    sequence_number: failure.sequenceNumber,
  });
  return { batchItemFailures: [{ itemIdentifier: failure.sequenceNumber }] };
});

/** What every record of one batch shares. */
interface BatchScope {
  logger: Logger;
  configurations: OncePerTenant<WebhookConfiguration[]>;
}

interface RecordFailure {
  sequenceNumber: string;
  error: unknown;
}

/**
 * Records whose table work runs at once, in the records' order: a record starts when the
 * one this far before it has been taken. One after another, a batch of 50 status changes
 * waited for 50 event writes in turn (issue 21).
 */
const RECORDS_AT_ONCE = 8;

/**
 * Handles the records, holding what each asks to send in the records' order, up to the
 * first that fails. The table work of the few records started after it may still complete
 * (an event stored, the configurations read): it is waited for, so nothing runs past the
 * invocation, and the retry, which starts at the failed record, finds those events stored.
 */
async function handleInOrder(
  records: DynamoDBRecord[],
  pending: PendingSends,
  scope: BatchScope,
): Promise<RecordFailure | undefined> {
  const started: Promise<AddressedMessage[]>[] = [];
  const start = (index: number) => {
    const record = records[index];
    if (!record) return;
    const messages = messagesOf(record, scope);
    // Its failure is met at its turn; until then it must not count as unhandled.
    messages.catch(() => {});
    started.push(messages);
  };
  for (let index = 0; index < RECORDS_AT_ONCE; index++) start(index);
  for (const [index, record] of records.entries()) {
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    try {
      pending.add(sequenceNumber, await (started[index] as Promise<AddressedMessage[]>));
    } catch (error) {
      await Promise.allSettled(started.slice(index + 1));
      return { sequenceNumber, error };
    }
    start(index + RECORDS_AT_ONCE);
  }
  return undefined;
}

/** What one record asks to send, once its actions are done (one after another, in the rule's order). */
async function messagesOf(record: DynamoDBRecord, scope: BatchScope): Promise<AddressedMessage[]> {
  const messages: AddressedMessage[] = [];
  for (const action of actionsOf(record)) messages.push(...(await perform(action, scope)));
  return messages;
}

function actionsOf(record: DynamoDBRecord): StreamAction[] {
  const image = (raw: unknown) => (raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined);
  return actionsFor(record.eventName, image(record.dynamodb?.OldImage), image(record.dynamodb?.NewImage));
}

/**
 * Does the table work an action needs now and returns the messages it asks to send; an
 * action on a tenant's records acts for that tenant (#shared/tenant-scope).
 */
async function perform(action: StreamAction, { logger, configurations }: BatchScope): Promise<AddressedMessage[]> {
  switch (action.kind) {
    case 'enqueue':
      return [{ queue: action.queue, message: action.message }];
    case 'record-event':
      return actingFor(action.tenant, async () => {
        const stored = await storedEvents().store(action.tenant, action.envelope);
        if (!stored) logger.info('event already stored', { event_id: action.envelope.event_id });
        return [];
      });
    case 'publish-event':
      return actingFor(action.tenant, () =>
        deliveriesOf(
          { tenant: action.tenant, event_id: action.eventId, event_type: action.eventType },
          { configurations },
        ),
      );
  }
}
