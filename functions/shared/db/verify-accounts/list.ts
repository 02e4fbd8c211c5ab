import {
  type ControlStatus,
  type DebitStatus,
  type OwnershipStatus,
  VERIFICATION_STATUSES,
  type VerificationStatus,
  type VerifyAccount,
} from '#domain/verify-account';
import type { ListPage, ListPositions, PageRequest, PageSource } from '../list-positions/index';
import type { IndexQuery } from '../paging/index-query';
import { allShards, listShardCount } from '../shards';
import { toAccount } from './item';
import { accountKeys } from './keys';
import type { VerifyAccountRepository } from './repository';

// What `GET /verify/accounts` filters on, and the index walk that serves it (patterns 2
// and 3 of docs/data-model.md): the tenant's accounts, or those with one account number.

export interface AccountListFilter {
  id?: string;
  /** Inclusive lower bound of `created_at` (RFC 3339, UTC, ms). */
  startTime?: string;
  /** Exclusive upper bound of `created_at`. */
  endTime?: string;
  accountNumber?: string;
  verificationStatus?: VerificationStatus[];
  ownershipStatus?: OwnershipStatus[];
  controlStatus?: ControlStatus[];
  debitStatus?: DebitStatus[];
}

const STATUS_FILTERS = [
  ['verificationStatus', 'verification_status'],
  ['ownershipStatus', 'ownership_status'],
  ['controlStatus', 'control_status'],
  ['debitStatus', 'debit_status'],
] as const;

/** The filters evaluated on the tenant list's index; `verification_status` is its partition key instead. */
const PROJECTED_STATUS_FILTERS = STATUS_FILTERS.filter(([param]) => param !== 'verificationStatus');

/**
 * The index walk of a list. The tenant's list (pattern 2) reads the partitions of the
 * verification statuses asked for (all five without that filter) in every shard; the
 * other statuses are filtered on the index. The accounts with one account number
 * (pattern 3) are one partition whose index carries no statuses: the caller tests the
 * items it reads (`matchesFilter`), so a status change never rewrites that index.
 */
export function accountListQuery(tenant: string, filter: AccountListFilter): IndexQuery {
  const time = { from: filter.startTime, before: filter.endTime };
  if (filter.accountNumber) {
    return { index: 'byLookup', partitions: [accountKeys.byAccountNumber(tenant, filter.accountNumber)], ...time };
  }
  const statuses = filter.verificationStatus?.length ? filter.verificationStatus : VERIFICATION_STATUSES;
  const shards = allShards(listShardCount(tenant));
  return {
    index: 'byTenant',
    partitions: statuses.flatMap((status) => shards.map((shard) => accountKeys.list(tenant, status, shard))),
    ...time,
    anyOf: Object.fromEntries(PROJECTED_STATUS_FILTERS.map(([param, attribute]) => [attribute, filter[param]])),
  };
}

/** Whether the list's index cannot evaluate the filter's statuses itself (the account-number lookup). */
export const filtersAfterRead = (filter: AccountListFilter): boolean =>
  filter.accountNumber !== undefined && STATUS_FILTERS.some(([param]) => filter[param]?.length);

/** Whether one account passes the filter (the `id` filter reads the account by key instead of the index). */
export function matchesFilter(account: VerifyAccount, filter: AccountListFilter): boolean {
  if (filter.startTime && account.created_at < filter.startTime) return false;
  if (filter.endTime && account.created_at >= filter.endTime) return false;
  if (filter.accountNumber && account.account_number !== filter.accountNumber) return false;
  return STATUS_FILTERS.every(([param, attribute]) => {
    const wanted = filter[param] as string[] | undefined;
    return !wanted?.length || wanted.includes(account[attribute] as string);
  });
}

/**
 * The list's walk and what a position keeps of it: the statuses tested after the read
 * (never the account number, which the partition key holds digested). An account-number
 * list is small and its key a digest of a secret: it takes no bookmarks
 * (docs/decisions.md#deep-pages-list-positions).
 */
export function accountListSource(tenant: string, filter: AccountListFilter): PageSource {
  const statuses = Object.fromEntries(
    STATUS_FILTERS.flatMap(([param]) => (filter[param]?.length ? [[param, filter[param]]] : [])),
  );
  return {
    query: accountListQuery(tenant, filter),
    afterRead: filtersAfterRead(filter) ? statuses : undefined,
    bookmarkable: filter.accountNumber === undefined,
  };
}

/**
 * `GET /verify/accounts`: a page of the tenant's accounts served from the list's positions.
 * Apart from the repository, so that a function reading or writing one account bundles no
 * paging.
 */
export class AccountList {
  constructor(
    private readonly accounts: VerifyAccountRepository,
    private readonly positions: ListPositions,
  ) {}

  /**
   * Newest first (`created_at` descending, then id descending), one page of the filtered
   * set, by number or after a cursor, and the cursor of the next page.
   */
  async page(
    tenant: string,
    filter: AccountListFilter,
    request: PageRequest,
    now = new Date(),
  ): Promise<ListPage<VerifyAccount>> {
    if ('page' in request && filter.id !== undefined) {
      const account = request.page.take > 0 ? await this.accounts.get(tenant, filter.id) : undefined;
      return { items: account && request.page.skip === 0 && matchesFilter(account, filter) ? [account] : [] };
    }
    const list = {
      kind: 'verify_accounts' as const,
      source: () => accountListSource(tenant, filter),
      matchesOf: (statuses?: Record<string, unknown>) =>
        statuses ? (item: Record<string, unknown>) => matchesFilter(toAccount(item), statuses) : undefined,
    };
    const served = await this.positions.serve(tenant, list, request, now);
    return { items: served.items.map(toAccount), next: served.next };
  }
}
