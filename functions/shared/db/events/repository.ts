import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { EVENT_RETENTION_MS, type EventEnvelope } from '#domain/events';
import type { PageWindow } from '#domain/pagination';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { readPage, tablePartition } from '../paging';
import { TABLE_SCHEMA } from '../schema';
import { allShards, listShardCount, listShardOf } from '../shards';
import { eventKeys } from './keys';

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
}

export interface EventListFilter {
  eventTypes?: string[];
  /** Inclusive lower bound of `created_at`. */
  startTime?: string;
  /** Exclusive upper bound of `created_at`. */
  endTime?: string;
}

export interface StoredEvent {
  tenant: string;
  envelope: EventEnvelope;
}

/** An event with every delivery attempt recorded beside it, oldest first. */
export interface EventWithAttempts {
  stored: StoredEvent;
  attempts: DeliveryAttempt[];
}

/** The event log: one item per event, kept 30 days (TTL). */
export class EventRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Stores the event unless it exists (same id = same change): true when this call stored it. */
  async store(tenant: string, envelope: EventEnvelope): Promise<boolean> {
    const expires = new Date(envelope.created_at).getTime() + EVENT_RETENTION_MS;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...eventKeys.event(tenant, envelope.event_id),
            entity: ENTITY.event,
            version: 1,
            tenant,
            id: envelope.event_id,
            event_type: envelope.event_type,
            created_at: envelope.created_at,
            envelope,
            gsi1pk: eventKeys.list(tenant, listShardOf(tenant, envelope.event_id)),
            gsi1sk: eventKeys.order(envelope.created_at, envelope.event_id),
            [TABLE_SCHEMA.ttlAttribute]: Math.ceil(expires / 1000),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
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
    return { tenant, envelope: out.Item.envelope as EventEnvelope };
  }

  /** Newest first, one page of the tenant's events of the given types and times (pattern 8). */
  async list(tenant: string, filter: EventListFilter, page: PageWindow): Promise<StoredEvent[]> {
    const query = {
      index: 'byTenant' as const,
      partitions: allShards(listShardCount(tenant)).map((shard) => eventKeys.list(tenant, shard)),
      from: filter.startTime,
      before: filter.endTime,
      anyOf: { event_type: filter.eventTypes },
    };
    const items = await readPage(this.db, this.tableName, query, page);
    return items.map((item) => ({ tenant, envelope: item.envelope as EventEnvelope }));
  }

  /** Records one delivery attempt beside its event; it expires with the event. */
  async recordAttempt(
    tenant: string,
    eventId: string,
    attempt: DeliveryAttempt,
    expiresAtSeconds: number,
  ): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...eventKeys.attempt(tenant, eventId, attempt.at, attempt.configuration_id, attempt.attempt),
          entity: ENTITY.deliveryAttempt,
          version: 1,
          tenant,
          event_id: eventId,
          ...attempt,
          [TABLE_SCHEMA.ttlAttribute]: expiresAtSeconds,
        },
      }),
    );
  }

  /**
   * The event and every delivery attempt, oldest first, in one strongly consistent Query of
   * the event's partition (pattern 18): the attempts sort before the event's own `EVT` item.
   * `undefined` when the event is gone (expired after 30 days).
   */
  async withAttempts(tenant: string, eventId: string): Promise<EventWithAttempts | undefined> {
    const items = await tablePartition(this.db, this.tableName, eventKeys.event(tenant, eventId).pk);
    const event = items.find((item) => item.entity === ENTITY.event);
    if (!event) return undefined;
    return {
      stored: { tenant, envelope: event.envelope as EventEnvelope },
      attempts: items.filter((item) => item.entity === ENTITY.deliveryAttempt).map(toAttempt),
    };
  }
}

function toAttempt(item: Record<string, unknown>): DeliveryAttempt {
  const { at, url, configuration_id, attempt, status_code, latency_ms, error, final, redelivery } = item;
  return { at, url, configuration_id, attempt, status_code, latency_ms, error, final, redelivery } as DeliveryAttempt;
}
