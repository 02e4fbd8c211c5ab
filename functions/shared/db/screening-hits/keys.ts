import type { ScreeningList } from '#domain/screening-match';
import type { HitStatus } from '#domain/screening-review';
import { personKeys } from '../persons/keys';

// Keys of the hits to review (docs/data-model.md, patterns 24–25): beside their person, one
// item per (list, entry) pair, and a sparse byDueTime partition per review status across
// tenants, which the operators' list walks.

/** Sort keys of a person's hits start so: the person's partition holds the person, its review cases and its hits. */
export const HIT_SORT_PREFIX = 'HIT#';

/** The byDueTime partitions of hits by status: `open` is the operators' queue. */
const REVIEW_PARTITION_PREFIX = 'SCREENHITS#';

export const hitKeys = {
  /** The partition of a person, where its hits are kept beside it. */
  person: (tenant: string, personId: string) => personKeys.person(tenant, personId).pk,
  hit: (tenant: string, personId: string, list: ScreeningList, entryId: string) => ({
    pk: hitKeys.person(tenant, personId),
    sk: `${HIT_SORT_PREFIX}${list}#${entryId}`,
  }),
  /** Every tenant's hits in one review status, by when they were found (open) or decided. */
  review: (status: HitStatus) => `${REVIEW_PARTITION_PREFIX}${status}`,
  reviewOrder: (at: string, hitId: string) => `${at}#${hitId}`,
};

/** Whether an index partition is one of the review partitions (a stored list position is checked against it). */
export const isReviewPartition = (partition: string, statuses: readonly HitStatus[]): boolean =>
  statuses.some((status) => hitKeys.review(status) === partition);
