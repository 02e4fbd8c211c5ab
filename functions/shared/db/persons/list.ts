import { PERSON_STATUSES, type Person, type PersonStatus } from '#domain/person';
import type { ListPage, ListPositions, PageRequest, PageSource } from '../list-positions/index';
import type { IndexQuery } from '../paging/index-query';
import { allShards, listShardCount } from '../shards';
import { nameFilterKey, toPerson } from './item';
import { personKeys } from './keys';
import type { PersonRepository } from './repository';

/** What `GET /persons` filters on (pattern 11 of docs/data-model.md). */
export interface PersonListFilter {
  id?: string;
  customerReferenceId?: string;
  /** Inclusive lower bound of `created_at`. */
  startTime?: string;
  /** Exclusive upper bound of `created_at`. */
  endTime?: string;
  status?: PersonStatus[];
  firstName?: string;
  lastName?: string;
}

/** The tenant's persons of the statuses asked for (all without that filter), every shard; names filtered on the index. */
export function personListQuery(tenant: string, filter: PersonListFilter): IndexQuery {
  const statuses = filter.status?.length ? filter.status : PERSON_STATUSES;
  const shards = allShards(listShardCount(tenant));
  return {
    index: 'byTenant',
    partitions: statuses.flatMap((status) => shards.map((shard) => personKeys.list(tenant, status, shard))),
    from: filter.startTime,
    before: filter.endTime,
    anyOf: {
      first_name_key: filter.firstName === undefined ? undefined : [nameFilterKey(filter.firstName)],
      last_name_key: filter.lastName === undefined ? undefined : [nameFilterKey(filter.lastName)],
    },
  };
}

/** Whether one person passes the filter (the `id` and reference filters read the person by key). */
export function matchesPersonFilter(
  person: {
    created_at: string;
    status: PersonStatus;
    first_name: string;
    last_name: string;
    customer_reference_id: string;
  },
  filter: PersonListFilter,
): boolean {
  if (filter.startTime && person.created_at < filter.startTime) return false;
  if (filter.endTime && person.created_at >= filter.endTime) return false;
  if (filter.status?.length && !filter.status.includes(person.status)) return false;
  if (filter.firstName !== undefined && nameFilterKey(filter.firstName) !== nameFilterKey(person.first_name))
    return false;
  if (filter.lastName !== undefined && nameFilterKey(filter.lastName) !== nameFilterKey(person.last_name)) return false;
  if (filter.customerReferenceId !== undefined && filter.customerReferenceId !== person.customer_reference_id)
    return false;
  return true;
}

/** The list's walk; every person list takes bookmarks (docs/decisions.md#deep-pages-list-positions). */
export const personListSource = (tenant: string, filter: PersonListFilter): PageSource => ({
  query: personListQuery(tenant, filter),
  bookmarkable: true,
});

/**
 * `GET /persons`: a page of the tenant's persons served from the list's positions. Apart
 * from the repository, so that a function reading or writing one person bundles no paging.
 */
export class PersonList {
  constructor(
    private readonly persons: PersonRepository,
    private readonly positions: ListPositions,
  ) {}

  /**
   * Newest first (`created_at` descending, then id descending), one page of the filtered
   * set, by number or after a cursor, and the cursor of the next page.
   */
  async page(
    tenant: string,
    filter: PersonListFilter,
    request: PageRequest,
    now = new Date(),
  ): Promise<ListPage<Person>> {
    if ('page' in request && (filter.id !== undefined || filter.customerReferenceId !== undefined)) {
      if (request.page.take === 0) return { items: [] };
      const person =
        filter.id !== undefined
          ? await this.persons.get(tenant, filter.id)
          : await this.persons.getByReference(tenant, filter.customerReferenceId as string);
      return { items: person && request.page.skip === 0 && matchesPersonFilter(person, filter) ? [person] : [] };
    }
    const list = { kind: 'persons' as const, source: () => personListSource(tenant, filter) };
    const served = await this.positions.serve(tenant, list, request, now);
    return { items: served.items.map(toPerson), next: served.next };
  }
}
