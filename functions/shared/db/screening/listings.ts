import { randomUUID } from 'node:crypto';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DailyPeaks } from '#domain/list-refresh-checks';
import type { ListedPerson, ScreeningList } from '#domain/screening-match';
import { ENTITY } from '../entities';
import { batchGetInOrder } from '../paging/batch-get';
import { TABLE_SCHEMA } from '../schema';
import { screeningKeys } from './keys';

/** A listing by its list and id. */
export interface ListingRef {
  readonly list: ScreeningList;
  readonly entryId: string;
}

/**
 * A change of the lists as the re-screen reads it: the listings added or changed (a
 * removal re-screens no one: it never lifts a restriction), or `all` when there are more
 * than a change item holds, and the re-screen takes the whole lists.
 */
export type ListChange = { readonly all: true } | { readonly all: false; readonly listings: readonly ListingRef[] };

/** The last refresh of the lists from OFAC's files (or a folder): when, and what it read. */
export interface ListsRefresh {
  readonly refreshedAt: string;
  /** Each file's publication date (its download's `Last-Modified`, ISO), by file name. */
  readonly published: Readonly<Record<string, string>>;
  /** Listed persons by source (`SDN`, `CONS`, `ALERTS`) after it. */
  readonly counts: Readonly<Record<string, number>>;
  /**
   * The largest listed-person count of each day of the last 30, by source (the sources a
   * refresh checks for drops, `SDN` and `CONS`): the baseline of the next refresh's drop check.
   */
  readonly peaks: Readonly<Record<string, DailyPeaks>>;
}

/** The most listings a change names; a larger change re-screens against the whole lists. */
export const CHANGE_LISTINGS_LIMIT = 1000;

/**
 * The listed persons of the screening lists as the matcher reads them (docs/decisions.md#screening):
 * one item per listing with every name and date of birth, walked whole by a function that
 * holds the lists in memory; one change item per write of the lists, whose stream record
 * re-screens the verified persons; and one version the writers bump so that a holder
 * rebuilds.
 */
export class ListingRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Adds or replaces a listing (the writer records the change once its batch is written: `recordChange`). */
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
    return this.read(keys);
  }

  /** The listings of `refs` that are still listed, in that order. */
  async get(refs: readonly ListingRef[]): Promise<ListedPerson[]> {
    return this.read(refs.map((ref) => screeningKeys.listing(ref.list, ref.entryId)));
  }

  /** Takes a listing off its list (the listing alone: the restrictions it caused stay). */
  async remove(ref: ListingRef): Promise<void> {
    await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: screeningKeys.listing(ref.list, ref.entryId) }),
    );
  }

  private async read(keys: readonly { pk: string; sk: string }[]): Promise<ListedPerson[]> {
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

  /**
   * A write of the lists is done: its change item (whose stream record re-screens the
   * verified persons against the listings it names), then the lists' version, so functions
   * holding the lists rebuild on their next use. Written in that order, a failure between
   * leaves the change to be written again by the retried load, never a version with no change.
   */
  async recordChange(changed: readonly ListingRef[], now: Date): Promise<string> {
    const changeId = `${now.toISOString()}#${randomUUID()}`;
    const all = changed.length > CHANGE_LISTINGS_LIMIT;
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...screeningKeys.change(changeId),
          entity: ENTITY.screeningChange,
          version: 1,
          change_id: changeId,
          all,
          listings: all ? [] : changed.map((ref) => ({ list: ref.list, entry_id: ref.entryId })),
          changed_at: now.toISOString(),
        },
      }),
    );
    await this.bumpVersion(now);
    return changeId;
  }

  /** A change as the re-screen reads it; undefined when there is no such change. */
  async change(changeId: string): Promise<ListChange | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: screeningKeys.change(changeId) }));
    if (!out.Item) return undefined;
    if (out.Item.all === true) return { all: true };
    const listings = (out.Item.listings as { list: ScreeningList; entry_id: string }[]).map((ref) => ({
      list: ref.list,
      entryId: ref.entry_id,
    }));
    return { all: false, listings };
  }

  /**
   * The last refresh, noted on the lists' version item (read consistently: the refresh that
   * follows checks the dates against it); undefined before the first.
   */
  async lastRefresh(): Promise<ListsRefresh | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: screeningKeys.version, ConsistentRead: true }),
    );
    const item = out.Item;
    if (!item?.refreshed_at) return undefined;
    return {
      refreshedAt: String(item.refreshed_at),
      published: (item.published_files ?? {}) as Record<string, string>,
      counts: (item.listed_counts ?? {}) as Record<string, number>,
      peaks: (item.listed_peaks ?? {}) as Record<string, DailyPeaks>,
    };
  }

  /** Notes a refresh that passed its checks, whether or not it changed the lists (the version stays). */
  async recordRefresh(refresh: Omit<ListsRefresh, 'refreshedAt'>, now: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: screeningKeys.version,
        UpdateExpression:
          'SET entity = :entity, refreshed_at = :at, published_files = :published, listed_counts = :counts, listed_peaks = :peaks ADD version :one',
        ExpressionAttributeValues: {
          ':entity': ENTITY.screeningVersion,
          ':at': now.toISOString(),
          ':published': refresh.published,
          ':counts': refresh.counts,
          ':peaks': refresh.peaks,
          ':one': 1,
        },
      }),
    );
  }

  private async bumpVersion(now: Date): Promise<void> {
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
