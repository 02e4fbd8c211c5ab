import { type DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { HitRecord, HitWrite } from '#domain/screening-review';
import { lostRace } from '../conditions';
import { tablePartition } from '../paging/partitions';
import { concurrentUpdate } from '../versioned-update';
import type { HitAddress } from './hit-id';
import { hitItem, isHitItem, toHitRecord } from './item';
import { HIT_SORT_PREFIX, hitKeys } from './keys';

/**
 * The person's write that goes with every write of its hits, or neither happens
 * (`PersonRepository.hitsUpdateInput`: the hits' revision, and a status when it changes).
 */
export type TransactUpdate = NonNullable<
  NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number]['Update']
>;

/** Hits one transaction writes at most: a transaction holds 100 items, one of them the person. */
export const HITS_PER_WRITE = 99;

/**
 * The hits to review (docs/data-model.md, patterns 24–25): one item per person and
 * (list, entry) pair beside the person, written on condition of the version read and
 * together with the person's update (its hits' revision), and the byDueTime partition of
 * each review status that operators page through across tenants.
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
   * Stores what a screening decided for its hits (at most `HITS_PER_WRITE`) with the person's
   * update, in one transaction: a new hit only where none is, a known one only over the
   * version read, so a decision taken meanwhile is never overwritten. A hit or the person
   * changed since they were read: `concurrent_update` (screen again on a fresh read).
   */
  async record(writes: readonly HitWrite[], personUpdate: TransactUpdate): Promise<HitRecord[]> {
    if (writes.length === 0 || writes.length > HITS_PER_WRITE) {
      throw new RangeError(`a transaction records 1 to ${HITS_PER_WRITE} hits, not ${writes.length}`);
    }
    const stored = writes.map(({ next, previous }) => ({ ...next, version: (previous?.version ?? 0) + 1 }));
    const puts = writes.map(({ previous }, i) => ({
      Put: {
        TableName: this.tableName,
        Item: hitItem(stored[i] as HitRecord),
        ...(previous
          ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    }));
    await this.transact([...puts, { Update: personUpdate }]);
    return stored;
  }

  /**
   * Stores a decision over the open hit read with the person's update (its hits' revision,
   * and its lifted hold when clearing lifts it), in one transaction: a hit is never cleared
   * without its person lifted, nor the reverse, and never decided on hits that changed since
   * they were read. Either record changed: `concurrent_update` (decide again on a fresh
   * read). Without a person (none is stored) the hit alone.
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
    if (personUpdate) {
      await this.transact([{ Put: put }, { Update: personUpdate }]);
      return stored;
    }
    try {
      await this.db.send(new PutCommand(put));
    } catch (error) {
      if (lostRace(error)) throw concurrentUpdate();
      throw error;
    }
    return stored;
  }

  private async transact(items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>) {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (lostRace(error)) throw concurrentUpdate();
      throw error;
    }
  }
}
