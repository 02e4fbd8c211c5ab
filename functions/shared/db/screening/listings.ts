import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ListedPerson, ScreeningList } from '#domain/screening-match';
import { ENTITY } from '../entities';
import { batchGetInOrder } from '../paging/batch-get';
import { TABLE_SCHEMA } from '../schema';
import { screeningKeys } from './keys';

/**
 * The listed persons of the screening lists as the matcher reads them (docs/decisions.md#screening):
 * one item per listing with every name and date of birth, walked whole by a function that
 * holds the lists in memory, and one version the writers bump so that it rebuilds.
 */
export class ListingRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Adds or replaces a listing (the writer bumps the version once its batch is written: `bumpVersion`). */
  async put(listing: ListedPerson, now: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...screeningKeys.listing(listing.list, listing.entryId),
          entity: ENTITY.screeningListing,
          version: 1,
          gsi1pk: screeningKeys.listings(listing.list),
          gsi1sk: listing.entryId,
          list: listing.list,
          source: listing.source,
          entry_id: listing.entryId,
          name: listing.name,
          names: JSON.stringify(listing.names),
          dates_of_birth: JSON.stringify(listing.datesOfBirth),
          loaded_at: now.toISOString(),
        },
      }),
    );
  }

  /** Every listing of a list: its keys from the list's byTenant partition, then the items, 100 a call. */
  async all(list: ScreeningList): Promise<ListedPerson[]> {
    const index = TABLE_SCHEMA.indexes.byTenant;
    const keys: { pk: string; sk: string }[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const out: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':pk': screeningKeys.listings(list) },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of out.Items ?? []) keys.push({ pk: String(item.pk), sk: String(item.sk) });
      startKey = out.LastEvaluatedKey;
    } while (startKey);
    const items = await batchGetInOrder(this.db, this.tableName, keys);
    return items.map((item) => ({
      list: item.list as ScreeningList,
      source: String(item.source),
      entryId: String(item.entry_id),
      name: String(item.name),
      names: JSON.parse(String(item.names)),
      datesOfBirth: JSON.parse(String(item.dates_of_birth)),
    }));
  }

  /** The lists' version: 0 before any was loaded. */
  async version(): Promise<number> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: screeningKeys.version, ConsistentRead: true }),
    );
    return Number(out.Item?.lists_version ?? 0);
  }

  /** A change of either list is written: functions holding the lists rebuild on their next use. */
  async bumpVersion(now: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: screeningKeys.version,
        UpdateExpression: 'SET entity = :entity, changed_at = :at ADD lists_version :one, version :one',
        ExpressionAttributeValues: { ':entity': ENTITY.screeningVersion, ':at': now.toISOString(), ':one': 1 },
      }),
    );
  }
}
