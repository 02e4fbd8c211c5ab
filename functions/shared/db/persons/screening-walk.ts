import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Person } from '#domain/person';
import { batchGetInOrder } from '../paging/batch-get';
import { TABLE_SCHEMA } from '../schema';
import { toPerson } from './item';
import { personKeys } from './keys';

/** A person by its tenant and id. */
export interface PersonRef {
  readonly tenant: string;
  readonly id: string;
}

/** Index entries one walk page reads: one batch read of the persons. */
export const SCREENING_PAGE = 100;

/**
 * The verified persons of every tenant, shard by shard, as the re-screens walk them
 * (docs/data-model.md, pattern 13): never a Scan, never a read per listed name.
 */
export class ScreeningWalk {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * One page of the verified and restricted persons of a screening shard (a restricted
   * one is walked so that a new listing it matches is recorded and counted), every tenant's, in key order
   * after `after` (docs/data-model.md, pattern 13): the index gives their keys, a batch read
   * the persons. `next` is where the following page starts, none after the last.
   */
  async page(shard: number, after?: PersonRef): Promise<{ persons: Person[]; next?: PersonRef }> {
    const index = TABLE_SCHEMA.indexes.byLookup;
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: '#status IN (:verified, :restricted)',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#status': 'status' },
        ExpressionAttributeValues: {
          ':pk': personKeys.screening(shard),
          ':verified': 'verified',
          ':restricted': 'restricted',
        },
        Limit: SCREENING_PAGE,
        ExclusiveStartKey: after && {
          ...personKeys.person(after.tenant, after.id),
          [index.partitionKey]: personKeys.screening(shard),
          [index.sortKey]: personKeys.screeningOrder(after.tenant, after.id),
        },
      }),
    );
    const refs = (out.Items ?? []).map((item) => ({ tenant: String(item.tenant), id: String(item.id) }));
    const items = await batchGetInOrder(
      this.db,
      this.tableName,
      refs.map((ref) => personKeys.person(ref.tenant, ref.id)),
    );
    // The index's sort key is `<tenant>#<id>`, and a tenant holds no `#`.
    const last = out.LastEvaluatedKey?.[index.sortKey];
    const at = typeof last === 'string' ? last.indexOf('#') : -1;
    return {
      persons: items.map(toPerson),
      next: at > 0 ? { tenant: String(last).slice(0, at), id: String(last).slice(at + 1) } : undefined,
    };
  }
}
