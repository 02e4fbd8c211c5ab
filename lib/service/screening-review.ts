import type { ServiceArea } from './types';

/**
 * Hits to review: the service's operators (scope `review:screening`, never a partner's)
 * list the hits screening found, across tenants, and decide them. The hits themselves are
 * recorded by the functions that screen (persons.ts, screening.ts).
 */
export const SCREENING_REVIEW: ServiceArea = {
  routes: [
    {
      id: 'ListScreeningHits',
      method: 'GET',
      path: '/screening/hits',
      scopes: ['review:screening'],
      handler: 'functions/screening-review/handlers/list-hits.ts',
      listPositions: true,
      // Every tenant's hits of one status: the review partition of byDueTime, then the page
      // by key; one person's hits: a Query of the person's partition.
      table: { actions: ['BatchGetItem', 'Query'], indexes: ['byDueTime'], leadingKeys: ['tenantData'] },
      crossTenant: 'an operator reads the hits of every tenant, or of the person of the tenant named',
    },
    {
      id: 'DecideScreeningHit',
      method: 'POST',
      path: '/screening/hits/{id}/decision',
      scopes: ['review:screening'],
      handler: 'functions/screening-review/handlers/decide-hit.ts',
      // The hit and, clearing it, its person and the person's other hits; the decision, with
      // the person's versioned write in one transaction when it lifts a hold.
      table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], leadingKeys: ['tenantData'] },
    },
  ],
  consumers: [],
  queues: {},
};
