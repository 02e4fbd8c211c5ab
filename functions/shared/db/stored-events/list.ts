import type { ListPage, ListPositions, PageRequest, PageSource } from '../list-positions/index';
import type { IndexQuery } from '../paging/index-query';
import { allShards, listShardCount } from '../shards';
import { eventKeys } from './keys';
import { openedEnvelope, type StoredEvent } from './repository';

/** What `GET /events` filters on (pattern 8 of docs/data-model.md). */
export interface EventListFilter {
  eventTypes?: string[];
  /** Test events (`POST /webhooks/invoke`) only; otherwise the events of real changes only. */
  test?: boolean;
  /** Inclusive lower bound of `created_at`. */
  startTime?: string;
  /** Exclusive upper bound of `created_at`. */
  endTime?: string;
}

/** The tenant's events of the given types and times, every shard; kinds filtered on the index. */
export function eventListQuery(tenant: string, filter: EventListFilter): IndexQuery {
  return {
    index: 'byTenant',
    partitions: allShards(listShardCount(tenant)).map((shard) => eventKeys.list(tenant, shard, filter.test === true)),
    from: filter.startTime,
    before: filter.endTime,
    anyOf: { event_type: filter.eventTypes },
  };
}

/** The list's walk. Events never change and expire oldest first: every event list takes bookmarks. */
export const eventListSource = (tenant: string, filter: EventListFilter): PageSource => ({
  query: eventListQuery(tenant, filter),
  bookmarkable: true,
});

/**
 * Whether a cursor's walk may serve this filter: a cursor names its kinds, and every one
 * must be among those asked (what the token reads).
 */
export const admitsEventCursor =
  (filter: EventListFilter) =>
  ({ anyOf }: IndexQuery): boolean =>
    filter.eventTypes === undefined ||
    (anyOf?.event_type?.length !== undefined &&
      anyOf.event_type.length > 0 &&
      anyOf.event_type.every((type) => filter.eventTypes?.includes(type)));

/**
 * `GET /events`: a page of the tenant's events served from the list's positions. Apart
 * from the repository, so that a function storing or reading one event bundles no paging.
 */
export class EventList {
  constructor(private readonly positions: ListPositions) {}

  /**
   * Newest first, one page of the tenant's events of the given types and times (pattern
   * 8), by number or after a cursor. Events never change and expire oldest first: every
   * event list takes bookmarks.
   */
  async page(
    tenant: string,
    filter: EventListFilter,
    request: PageRequest,
    now = new Date(),
  ): Promise<ListPage<StoredEvent>> {
    const list = {
      kind: 'events' as const,
      source: () => eventListSource(tenant, filter),
      admits: admitsEventCursor(filter),
    };
    const served = await this.positions.serve(tenant, list, request, now);
    return {
      items: served.items.map((item) => ({ tenant, envelope: openedEnvelope(tenant, item) })),
      next: served.next,
    };
  }
}
