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
export const KEPT_EXTRAS = ['metrics', 'kms', 'sqs'] as const;
export type KeptExtra = (typeof KEPT_EXTRAS)[number];

/** A kept floor's row, bundled by the stack like the floor's, and the packages it adds. */
export interface KeptFloor {
  readonly route: RouteDefinition;
  readonly extras: readonly KeptExtra[];
}

/**
 * The sets of extras the service's functions bundle, one kept floor each (in KEPT_EXTRAS'
 * order). Not every subset: each floor is one more route of the synthesized stack, and the
 * stack with the floor and these five is within CloudFormation's 500 resources (eight
 * were not). A function bundling a set not here is compared with none (its log says so).
 */
const EXTRA_SETS: readonly (readonly KeptExtra[])[] = [
  ['metrics'],
  ['metrics', 'kms'],
  ['metrics', 'sqs'],
  ['metrics', 'kms', 'sqs'],
  ['sqs'],
];

const capitalised = (word: string) => word[0]?.toUpperCase() + word.slice(1);

/**
 * The kept floors (./kept.ts): the floor with the packages every function carries by
 * decision, one per set of extras (handler `kept-<extra>…-handler.ts`); each function is
 * compared with the one whose extras it bundles.
 */
export const KEPT_FLOORS: readonly KeptFloor[] = EXTRA_SETS.map((extras) => {
  const slug = ['kept', ...extras].join('-');
  return {
    route: {
      ...FLOOR_ROUTE,
      id: `BenchKeptFloor${extras.map(capitalised).join('')}`,
      path: `/bench/${slug}/{id}`,
      handler: `test/bench/floor/${slug}-handler.ts`,
    },
    extras,
  };
});

/** The kept floor whose extras are exactly the packages a function bundles. */
export function keptFloorNameFor(
  floors: readonly { readonly name: string; readonly extras: readonly KeptExtra[] }[],
  bundled: readonly KeptExtra[],
): string | undefined {
  const wanted = [...bundled].sort().join('+');
  return floors.find((floor) => [...floor.extras].sort().join('+') === wanted)?.name;
}
