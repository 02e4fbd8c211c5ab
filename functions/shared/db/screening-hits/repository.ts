import { type DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { HitRecord, HitWrite } from '#domain/screening-review';
import { failedConditions, isConditionFailure } from '../conditions';
import { tablePartition } from '../paging/partitions';
import { concurrentUpdate } from '../versioned-update';
import type { HitAddress } from './hit-id';
import { hitItem, isHitItem, toHitRecord } from './item';
import { HIT_SORT_PREFIX, hitKeys } from './keys';

/** A write of another record that must happen with a decision, or not at all (the person's status). */
export type TransactUpdate = NonNullable<
  NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number]['Update']
>;

/**
 * The hits to review (docs/data-model.md, patterns 24–25): one item per person and
 * (list, entry) pair beside the person, written on condition of the version read, and the
 * byDueTime partition of each review status that operators page through across tenants.
 */
export class ScreeningHitRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Every hit recorded for a person (a handful: one per listing it ever matched), strongly consistent. */
  async ofPerson(tenant: string, personId: string): Promise<HitRecord[]> {
    const items = await tablePartition(this.db, this.tableName, hitKeys.person(tenant, personId), HIT_SORT_PREFIX);
    return items.filter(isHitItem).map(toHitRecord);
  }

  async get(address: HitAddress): Promise<HitRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: hitKeys.hit(address.tenant, address.personId, address.list, address.entryId),
        ConsistentRead: true,
      }),
    );
    return isHitItem(out.Item) ? toHitRecord(out.Item) : undefined;
  }

  /**
   * Stores what a screening decided for one hit: a new hit only where none is, a known one
   * only over the version read, so a decision taken meanwhile is never overwritten
   * (`concurrent_update`: screen again).
   */
  async save({ next, previous }: HitWrite): Promise<HitRecord> {
    const stored = { ...next, version: (previous?.version ?? 0) + 1 };
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: hitItem(stored),
          ...(previous
            ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw concurrentUpdate();
      throw error;
    }
    return stored;
  }

  /**
   * Stores a decision over the open hit read, with the person's change when it has one, in
   * one transaction: a hit is never cleared without its person lifted, nor the reverse. Either
   * record changed since it was read: `concurrent_update` (decide again on a fresh read).
   */
  async decide(open: HitRecord, decided: HitRecord, personUpdate?: TransactUpdate): Promise<HitRecord> {
    const stored = { ...decided, version: open.version + 1 };
    const put = {
      TableName: this.tableName,
      Item: hitItem(stored),
      ConditionExpression: 'version = :v AND #status = :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':v': open.version, ':open': 'open' },
    };
    try {
      if (personUpdate) {
        await this.db.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, { Update: personUpdate }] }));
      } else {
        await this.db.send(new PutCommand(put));
      }
    } catch (error) {
      if (isConditionFailure(error) || failedConditions(error).length > 0) throw concurrentUpdate();
      throw error;
    }
    return stored;
  }
}
