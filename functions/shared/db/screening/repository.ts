import { type DynamoDBDocumentClient, PutCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { ScreeningEntry } from '#domain/screening';

type ScreeningList = ScreeningEntry['list'];

import { ENTITY } from '../entities';
import { TABLE_SCHEMA } from '../schema';
import { screeningKeys } from './keys';

/**
 * The screening lists (sanctions, alerts) in the table: one item per entry, keyed by list
 * and folded name, so screening a person is one Query per list, never a walk over a list.
 */
export class ScreeningListRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Adds or replaces an entry; its stream record re-screens the persons of that name. */
  async put(entry: ScreeningEntry, now: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...screeningKeys.entry(entry.list, entry.nameKey, entry.entryId),
          entity: ENTITY.screeningEntry,
          version: 1,
          gsi1pk: screeningKeys.byList(entry.list),
          gsi1sk: screeningKeys.listOrder(entry.nameKey, entry.entryId),
          list: entry.list,
          entry_id: entry.entryId,
          name: entry.name,
          name_key: entry.nameKey,
          date_of_birth: entry.dateOfBirth,
          loaded_at: now.toISOString(),
        },
      }),
    );
  }

  /** The entries of `list` with the folded name `nameKey`. */
  async entriesNamed(list: ScreeningList, nameKey: string): Promise<ScreeningEntry[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': screeningKeys.entries(list, nameKey) },
      }),
    );
    return (out.Items ?? []).map(toEntry);
  }

  /** One page of a list's distinct folded names, in name order, for the daily re-screen. */
  async namesPage(
    list: ScreeningList,
    startKey?: Record<string, unknown>,
  ): Promise<{ nameKeys: string[]; next?: Record<string, unknown> }> {
    const index = TABLE_SCHEMA.indexes.byTenant;
    const out: QueryCommandOutput = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey },
        ExpressionAttributeValues: { ':pk': screeningKeys.byList(list) },
        ExclusiveStartKey: startKey,
      }),
    );
    const nameKeys = (out.Items ?? []).map((item) => String(item[index.sortKey]).split('#')[0] as string);
    return { nameKeys: [...new Set(nameKeys)], next: out.LastEvaluatedKey };
  }
}

function toEntry(item: Record<string, unknown>): ScreeningEntry {
  return {
    list: item.list as ScreeningList,
    entryId: String(item.entry_id),
    name: String(item.name),
    nameKey: String(item.name_key),
    dateOfBirth: item.date_of_birth as string | undefined,
  };
}
