import type { RouteDefinition } from '#lib/service/index';

/** The floor's row: a route like any other, so the stack bundles it like any other. */
export const FLOOR_ROUTE: RouteDefinition = {
  id: 'BenchFloor',
  method: 'GET',
  path: '/bench/floor/{id}',
  scopes: ['read:verify-accounts'],
  handler: 'test/bench/floor/handler.ts',
  table: { actions: ['GetItem'], leadingKeys: ['tenantData'] },
};
