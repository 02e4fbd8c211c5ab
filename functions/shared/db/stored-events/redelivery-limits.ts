import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Admission,
  admit,
  EVENT_REDELIVERIES,
  latestAdmitted,
  type PacedLimit,
  TENANT_REDELIVERIES,
} from '#domain/redelivery';
import { isConditionFailure } from '../conditions';
import { ENTITY } from '../entities';
import { TABLE_SCHEMA } from '../schema';
import { eventKeys } from './keys';

/** Writes lost to concurrent requests before one is refused with `Retry-After: 1`. */
const PACE_RACES = 3;

export type RedeliveryAdmission =
  | { readonly kind: 'unknown' }
  // Of a kind the caller may not redeliver: nothing spent.
  | { readonly kind: 'forbidden'; readonly eventType: string }
  | { readonly kind: 'refused'; readonly limit: 'event' | 'tenant'; readonly retryAfterSeconds: number }
  // The event's type only: a redelivery reads nothing else of it, so its route needs no
  // field key to open the accounts an envelope carries.
  | { readonly kind: 'admitted'; readonly eventType: string };

/** Where one bound's `tat` is stored. */
interface PaceCell {
  readonly key: { pk: string; sk: string };
  readonly attribute: string;
  readonly limit: PacedLimit;
  /** The event's own item: paced only while it exists, never created by pacing. */
  readonly existing?: boolean;
  /** Attributes the item gets when pacing creates it. */
  readonly created?: Record<string, unknown>;
}

/**
 * The redelivery bounds (docs/api.md#redelivery-limits), as `#domain/redelivery` paces them:
 * the event's on its own item (`redelivery_tat`), the tenant's on a small item of its own
 * (`REDELIVER#<tenant>`). Both are decided on consistent reads before anything is written, so
 * a refusal spends nothing; each admission is then one conditional UpdateItem that admits
 * only while the bound has room, so concurrent requests cannot pass it. The event's step is
 * given back if the tenant's bound refuses after all.
 */
export class RedeliveryLimits {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** `allows` decides on the event's type, read with it, before any bound is spent. */
  async admit(
    tenant: string,
    eventId: string,
    now: Date,
    allows: (eventType: string) => boolean = () => true,
  ): Promise<RedeliveryAdmission> {
    const nowMs = now.getTime();
    const event: PaceCell = {
      key: eventKeys.event(tenant, eventId),
      attribute: 'redelivery_tat',
      limit: EVENT_REDELIVERIES,
      existing: true,
    };
    const pace = tenantPace(tenant);
    const [eventItem, paceItem] = await Promise.all([this.read(event.key), this.read(pace.key)]);
    if (!eventItem) return { kind: 'unknown' };
    const eventType = String(eventItem.event_type);
    if (!allows(eventType)) return { kind: 'forbidden', eventType };
    const eventTat = tatOf(eventItem, event);
    const paceTat = tatOf(paceItem, pace);
    const early =
      refusal('event', admit(eventTat, event.limit, nowMs)) ?? refusal('tenant', admit(paceTat, pace.limit, nowMs));
    if (early) return early;

    const forEvent = await this.take(event, eventTat, nowMs);
    if (!forEvent.allowed) return refusal('event', forEvent) as RedeliveryAdmission;
    const forTenant = await this.take(pace, paceTat, nowMs);
    if (!forTenant.allowed) {
      await this.giveBack(event);
      return refusal('tenant', forTenant) as RedeliveryAdmission;
    }
    return { kind: 'admitted', eventType };
  }

  /**
   * A test event (`POST /webhooks/invoke`) on the tenant's bound alone: it fans out just as
   * a redelivery does, so both share one budget (a new event has no bound of its own).
   */
  async admitTestEvent(tenant: string, now: Date): Promise<Admission> {
    const pace = tenantPace(tenant);
    return this.take(pace, tatOf(await this.read(pace.key), pace), now.getTime());
  }

  /** Admits one request on `cell`: written on condition, decided again on what a concurrent request wrote. */
  private async take(cell: PaceCell, seenTat: number | undefined, nowMs: number): Promise<Admission> {
    let tat = seenTat;
    for (let round = 0; round < PACE_RACES; round++) {
      const admission = admit(tat, cell.limit, nowMs);
      if (!admission.allowed || (await this.write(cell, admission.write, nowMs))) return admission;
      tat = tatOf(await this.read(cell.key), cell);
    }
    return { allowed: false, retryAfterSeconds: 1 };
  }

  private async write(cell: PaceCell, write: 'start' | 'advance', nowMs: number): Promise<boolean> {
    const { ttlAttribute } = TABLE_SCHEMA;
    const created = write === 'start' ? Object.entries(cell.created ?? {}) : [];
    const sets = [
      write === 'start' ? '#tat = :next' : '#tat = #tat + :interval',
      ...created.map(([name]) => `#${name} = :${name}`),
      // An idle tenant's pace is back to nothing within seconds; the item goes after a day.
      ...(cell.created ? ['#ttl = :ttl'] : []),
    ];
    const condition =
      write === 'start' ? '(attribute_not_exists(#tat) OR #tat < :now)' : '#tat BETWEEN :now AND :latest';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: cell.key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: cell.existing ? `attribute_exists(pk) AND ${condition}` : condition,
          ExpressionAttributeNames: {
            '#tat': cell.attribute,
            ...Object.fromEntries(created.map(([name]) => [`#${name}`, name])),
            ...(cell.created && { '#ttl': ttlAttribute }),
          },
          ExpressionAttributeValues: {
            ':now': nowMs,
            ...(write === 'start'
              ? { ':next': nowMs + cell.limit.intervalMs }
              : { ':interval': cell.limit.intervalMs, ':latest': latestAdmitted(cell.limit, nowMs) }),
            ...Object.fromEntries(created.map(([name, value]) => [`:${name}`, value])),
            ...(cell.created && { ':ttl': Math.ceil(nowMs / 1000) + 86_400 }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Undoes one admission on `cell` (the other bound refused the request after all). */
  private async giveBack(cell: PaceCell): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: cell.key,
          UpdateExpression: 'SET #tat = #tat - :interval',
          ConditionExpression: 'attribute_exists(#tat)',
          ExpressionAttributeNames: { '#tat': cell.attribute },
          ExpressionAttributeValues: { ':interval': cell.limit.intervalMs },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  private async read(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return out.Item;
  }
}

/** The tenant's bound, on a small item of its own. */
const tenantPace = (tenant: string): PaceCell => ({
  key: eventKeys.redeliveryPace(tenant),
  attribute: 'tat',
  limit: TENANT_REDELIVERIES,
  created: { entity: ENTITY.redeliveryPace, version: 1, tenant },
});

const tatOf = (item: Record<string, unknown> | undefined, cell: PaceCell): number | undefined =>
  typeof item?.[cell.attribute] === 'number' ? (item[cell.attribute] as number) : undefined;

const refusal = (limit: 'event' | 'tenant', admission: Admission): RedeliveryAdmission | undefined =>
  admission.allowed ? undefined : { kind: 'refused', limit, retryAfterSeconds: admission.retryAfterSeconds };
