import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type HeldSlot, MAX_STORED_ATTEMPTS, slotCandidates } from '#domain/attempt-slots';
import { EVENT_RETENTION_MS, type EventEnvelope } from '#domain/event-envelope';
import { openFields, sealFields } from '#shared/field-cipher/index';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { type KeepAnswer, writeWithAnswer } from '../idempotency/kept-answer';
import { tablePartition } from '../paging/partitions';
import { TABLE_SCHEMA } from '../schema';
import { listShardOf } from '../shards';
import { claimDeliveryAttempt } from './delivery-claims';
import { type AttemptOf, eventKeys } from './keys';

/** One delivery attempt of an event to one configuration's URL (docs/api.md#event-log). */
export interface DeliveryAttempt {
  at: string;
  url: string;
  configuration_id: string;
  /** 1 for the first try. */
  attempt: number;
  status_code?: number;
  latency_ms: number;
  error?: string;
  /** Set on the last failed try: the delivery gave up and went to the dead-letter queue. */
  final?: boolean;
  /** The redelivery (`POST /events/{id}/redeliver`) this attempt belongs to; absent for the first delivery. */
  redelivery?: string;
  /** Where it is kept (`#domain/attempt-slots`); absent until it is recorded. */
  slot?: number;
}

export interface StoredEvent {
  tenant: string;
  envelope: EventEnvelope;
}

/** An event with the delivery attempts kept beside it (the newest 100), oldest first. */
export interface EventWithAttempts {
  stored: StoredEvent;
  attempts: DeliveryAttempt[];
}

/** The event log: one item per event, kept 30 days (TTL). */
export class StoredEventRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Stores the event unless it exists (same id = same change): true when this call stored
   * it. With `keep`, the request's answer is written with it (../idempotency/kept-answer.ts).
   */
  async store(tenant: string, envelope: EventEnvelope, keep?: KeepAnswer<void>): Promise<boolean> {
    const expires = new Date(envelope.created_at).getTime() + EVENT_RETENTION_MS;
    try {
      const put = {
        TableName: this.tableName,
        Item: {
          ...eventKeys.event(tenant, envelope.event_id),
          entity: ENTITY.event,
          version: 1,
          tenant,
          id: envelope.event_id,
          event_type: envelope.event_type,
          created_at: envelope.created_at,
          envelope: sealedEnvelope(tenant, envelope),
          gsi1pk: eventKeys.list(tenant, listShardOf(tenant, envelope.event_id), envelope.test === true),
          gsi1sk: eventKeys.order(envelope.created_at, envelope.event_id),
          [TABLE_SCHEMA.ttlAttribute]: Math.ceil(expires / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      };
      if (keep) await writeWithAnswer(this.db, [{ Put: put }], keep());
      else await this.db.send(new PutCommand(put));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(tenant: string, eventId: string): Promise<StoredEvent | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: eventKeys.event(tenant, eventId), ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    return { tenant, envelope: openedEnvelope(tenant, out.Item) };
  }

  /**
   * Records one delivery attempt beside its event, in a free slot or in place of an old
   * attempt (`#domain/attempt-slots`), so an event never keeps more than
   * MAX_STORED_ATTEMPTS; it expires with the event. `seen` are the attempts the caller read
   * with the event: each slot is written on condition that it still holds what was seen
   * there, so concurrent writers never overwrite each other's new attempts. False when
   * every slot tried was taken meanwhile (the attempt goes unrecorded).
   */
  async recordAttempt(
    tenant: string,
    eventId: string,
    attempt: DeliveryAttempt,
    expiresAtSeconds: number,
    seen: readonly DeliveryAttempt[] = [],
  ): Promise<boolean> {
    const held = new Map(seen.flatMap((a) => (a.slot === undefined ? [] : [[a.slot, a] as const])));
    const seed = `${attempt.configuration_id}#${attempt.attempt}#${attempt.redelivery ?? ''}`;
    for (const slot of slotCandidates([...held.values()] as HeldSlot[], seed)) {
      const previous = held.get(slot);
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...eventKeys.attempt(tenant, eventId, slot),
              entity: ENTITY.deliveryAttempt,
              version: 1,
              tenant,
              event_id: eventId,
              ...attempt,
              slot,
              [TABLE_SCHEMA.ttlAttribute]: expiresAtSeconds,
            },
            ...(previous
              ? {
                  ConditionExpression: '#at = :at AND configuration_id = :configuration AND attempt = :n',
                  ExpressionAttributeNames: { '#at': 'at' },
                  ExpressionAttributeValues: {
                    ':at': previous.at,
                    ':configuration': previous.configuration_id,
                    ':n': previous.attempt,
                  },
                }
              : { ConditionExpression: 'attribute_not_exists(pk)' }),
          }),
        );
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    return false;
  }

  /** See claimDeliveryAttempt (./delivery-claims.ts): one copy of a delivery message sends an attempt. */
  claimAttempt(tenant: string, eventId: string, attempt: AttemptOf, holder: string, now: Date, leaseUntil: Date) {
    return claimDeliveryAttempt(this.db, this.tableName, { tenant, eventId, attempt, holder, now, leaseUntil });
  }

  /**
   * The event and its delivery attempts, oldest first, in one strongly consistent Query of
   * the event's partition (pattern 18): at most the event and MAX_STORED_ATTEMPTS attempts,
   * one page. `undefined` when the event is gone (expired after 30 days).
   */
  async withAttempts(tenant: string, eventId: string): Promise<EventWithAttempts | undefined> {
    const items = await tablePartition(this.db, this.tableName, eventKeys.event(tenant, eventId).pk);
    const event = items.find((item) => item.entity === ENTITY.event);
    if (!event) return undefined;
    return {
      stored: { tenant, envelope: openedEnvelope(tenant, event) },
      // Slots are not in time order; attempts stored before slots (issue 18) may linger 30 days.
      attempts: items
        .filter((item) => item.entity === ENTITY.deliveryAttempt)
        .map(toAttempt)
        .sort(byTime)
        .slice(-MAX_STORED_ATTEMPTS),
    };
  }
}

/**
 * The envelope as stored: every value under an `account_number` key in its `event_data`,
 * at any depth, sealed under the field key and bound to the tenant and the event
 * (docs/data-model.md#field-encryption). An event carrying no account is stored as it is.
 */
function sealedEnvelope(tenant: string, envelope: EventEnvelope): EventEnvelope {
  const owner = { tenant, record: envelope.event_id };
  return { ...envelope, event_data: sealFields(envelope.event_data, owner, 'event_data') };
}

/** A stored event's envelope with its sealed values opened, as partners get it. */
export function openedEnvelope(tenant: string, item: Record<string, unknown>): EventEnvelope {
  const envelope = item.envelope as EventEnvelope;
  const owner = { tenant, record: envelope.event_id };
  return { ...envelope, event_data: openFields(envelope.event_data, owner, 'event_data') };
}

/** An attempt item's own fields, storage attributes left out. */
const ATTEMPT_FIELDS = 'at url configuration_id attempt status_code latency_ms error final redelivery slot'.split(' ');
const toAttempt = (item: Record<string, unknown>): DeliveryAttempt =>
  Object.fromEntries(ATTEMPT_FIELDS.map((field) => [field, item[field]])) as unknown as DeliveryAttempt;

/** Oldest first; attempts of one moment by configuration and number. */
const byTime = (a: DeliveryAttempt, b: DeliveryAttempt): number =>
  a.at !== b.at
    ? a.at < b.at
      ? -1
      : 1
    : a.configuration_id !== b.configuration_id
      ? a.configuration_id < b.configuration_id
        ? -1
        : 1
      : a.attempt - b.attempt;
