import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EVENT_RETENTION_MS, type EventEnvelope } from '#domain/events';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { TABLE_SCHEMA } from '../schema';
import { eventKeys } from './keys';

export interface StoredEvent {
  tenant: string;
  envelope: EventEnvelope;
  /** When the event was handed to the webhook queue; absent until then. */
  queued_at?: string;
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
            gsi1pk: eventKeys.byTenant(tenant),
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
    return {
      tenant,
      envelope: out.Item.envelope as EventEnvelope,
      queued_at: out.Item.queued_at as string | undefined,
    };
  }

  async markQueued(tenant: string, eventId: string, at: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: eventKeys.event(tenant, eventId),
        UpdateExpression: 'SET queued_at = if_not_exists(queued_at, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at.toISOString() },
      }),
    );
  }
}
