import { HIT_STATUSES, type HitRecord, type HitStatus } from '#domain/screening-review';
import type { ListPage, ListPositions, PageRequest } from '../list-positions/index';
import { isHitItem, toHitRecord } from './item';
import { hitKeys, isReviewPartition } from './keys';

/**
 * `GET /screening/hits` without a person: every tenant's hits in one review status, served
 * from the list's positions. Apart from the repository, so that a function recording or
 * deciding hits bundles no paging.
 */
export class HitList {
  constructor(private readonly positions: ListPositions) {}

  /** One page of every tenant's hits in one review status, newest first, by number or after a cursor. */
  async page(viewer: string, status: HitStatus, request: PageRequest, now: Date): Promise<ListPage<HitRecord>> {
    const served = await this.positions.serve(
      viewer,
      {
        kind: 'screening_hits',
        source: () => ({ query: { index: 'byDueTime', partitions: [hitKeys.review(status)] }, bookmarkable: true }),
        // A cursor comes without the status it was made for: any review partition is the list's.
        owns: (partition) => isReviewPartition(partition, HIT_STATUSES),
      },
      request,
      now,
    );
    return { items: served.items.filter(isHitItem).map(toHitRecord), next: served.next };
  }
}
