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

/** What a kept floor carries beyond the base kept floor's packages (./kept.ts). */
export type KeptExtra = 'kms' | 'sqs';

/** A kept floor's row, bundled by the stack like the floor's, and the clients it adds. */
export interface KeptFloor {
  readonly route: RouteDefinition;
  readonly extras: readonly KeptExtra[];
}

const keptFloor = (id: string, slug: string, handler: string, extras: readonly KeptExtra[]): KeptFloor => ({
  route: { ...FLOOR_ROUTE, id, path: `/bench/${slug}/{id}`, handler: `test/bench/floor/${handler}` },
  extras,
});

/**
 * The kept floors (./kept.ts): the floor with the packages every function carries by
 * decision; each function is compared with the one whose clients it bundles.
 */
export const KEPT_FLOORS: readonly KeptFloor[] = [
  keptFloor('BenchKeptFloor', 'kept-floor', 'kept-handler.ts', []),
  keptFloor('BenchKeptFloorKms', 'kept-floor-kms', 'kept-kms-handler.ts', ['kms']),
  keptFloor('BenchKeptFloorSqs', 'kept-floor-sqs', 'kept-sqs-handler.ts', ['sqs']),
  keptFloor('BenchKeptFloorKmsSqs', 'kept-floor-kms-sqs', 'kept-kms-sqs-handler.ts', ['kms', 'sqs']),
];

/** The kept floor whose extras are exactly the clients a function bundles. */
export function keptFloorNameFor(
  floors: readonly { readonly name: string; readonly extras: readonly KeptExtra[] }[],
  clients: readonly KeptExtra[],
): string | undefined {
  const wanted = [...clients].sort().join('+');
  return floors.find((floor) => [...floor.extras].sort().join('+') === wanted)?.name;
}
