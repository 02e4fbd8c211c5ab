import { httpHandler } from '#shared/http/handler';
import { nextLink, pageRequestOf } from '#shared/http/pages';
import { presentHit } from '../present';
import { listHitsQuery } from '../query-schemas';
import { listHits } from '../read-hits';

/** GET /screening/hits — operators only: open hits of every tenant, newest first, or one person's hits. */
export const handler = httpHandler(
  { query: listHitsQuery },
  async ({ tenant, query }) => {
    const person = query.tenant && query.person_id ? { tenant: query.tenant, id: query.person_id } : undefined;
    const page = await listHits(tenant, { status: query.status, person }, pageRequestOf(query));
    return {
      body: { screening_hits: page.items.map(presentHit) },
      headers: nextLink('/screening/hits', query, page.next),
    };
  },
  { operatorsOnly: true },
);
