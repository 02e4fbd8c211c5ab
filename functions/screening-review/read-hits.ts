import type { PageWindow } from '#domain/pagination';
import type { HitRecord, HitStatus } from '#domain/screening-review';
import type { ListPage, PageRequest } from '#shared/db/list-positions/index';
import { hitList, screeningHits } from '#shared/db/screening-hits/index';
import { now } from '#shared/dependencies';

// Reading the hits to review: every tenant's hits in one review status, page by page, or
// the hits of one person (a handful: one per listing it ever matched).

export interface HitFilter {
  status?: HitStatus;
  person?: { tenant: string; id: string };
}

/**
 * One page of hits, newest first: without a person, every tenant's hits in `status`
 * (`open` by default), through the review index; with one, that person's hits (every
 * status unless one is named), read beside the person. `viewer` is the operator's own
 * tenant, under which list positions are kept.
 */
export async function listHits(viewer: string, filter: HitFilter, request: PageRequest): Promise<ListPage<HitRecord>> {
  if (!filter.person) return hitList().page(viewer, filter.status ?? 'open', request, now());
  if (!('page' in request)) return { items: [] };
  const hits = await screeningHits().ofPerson(filter.person.tenant, filter.person.id);
  return {
    items: pageOf(newestFirst(hits.filter((hit) => !filter.status || hit.status === filter.status)), request.page),
  };
}

const newestFirst = (hits: HitRecord[]): HitRecord[] =>
  hits.sort((a, b) => (a.foundAt === b.foundAt ? 0 : a.foundAt < b.foundAt ? 1 : -1));

const pageOf = <T>(items: T[], page: PageWindow): T[] => items.slice(page.skip, page.skip + page.take);
