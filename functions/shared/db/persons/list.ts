import { PERSON_STATUSES, type PersonStatus } from '#domain/person';
import type { PageSource } from '../list-positions/index';
import type { IndexQuery } from '../paging/index-query';
import { allShards, listShardCount } from '../shards';
import { nameFilterKey } from './item';
import { personKeys } from './keys';

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
