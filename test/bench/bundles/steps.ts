import type { RouteDefinition } from '#lib/service/index';
import { FLOOR_ROUTE, KEPT_FLOORS } from '../floor/route';
import { cycle, httpEvent } from './lambda-events';
import { type Step, times } from './workload';
import { ACCOUNT_STEPS } from './workload-accounts';
import { PERSON_STEPS } from './workload-persons';
import { SCREENING_STEPS } from './workload-screening';
import { WEBHOOK_STEPS } from './workload-webhooks';

/** The floor's items, put by prepareTable (peak-rss.ts). */
export const FLOOR_ITEMS = 100;

/** A floor reads items by key: half of its reads find one, as a GET of a known id mostly does. */
const floorStep = (route: RouteDefinition): Step => ({
  name: route.id,
  after: [],
  expect: ['200', '404'],
  events: async (world) =>
    cycle(
      times(FLOOR_ITEMS * 2, (n) => `floor#${n}`),
      world.invocations,
    ).map((id) => httpEvent(route, { tenant: 'bench-floor', pathParameters: { id } })),
});

export const FLOOR_STEP: Step = floorStep(FLOOR_ROUTE);

/** The kept floors' (test/bench/floor/kept.ts): the floor's reads, through their routes. */
export const KEPT_FLOOR_STEPS: readonly Step[] = KEPT_FLOORS.map(({ route }) => floorStep(route));

/** Every function's workload, the floor's included (workload.ts says how steps feed each other). */
export const STEPS: readonly Step[] = [
  ...ACCOUNT_STEPS,
  ...PERSON_STEPS,
  ...SCREENING_STEPS,
  ...WEBHOOK_STEPS,
  FLOOR_STEP,
  ...KEPT_FLOOR_STEPS,
];

/**
 * The steps of the functions named and of every step they need (`after`), so a run of a few
 * functions (`--only`) still finds the table as their inputs leave it; the floors' apart.
 */
export function stepsFor(names: readonly string[]): Step[] {
  const unknown = names.filter((name) => !STEPS.some((step) => step.name === name));
  if (unknown.length > 0)
    throw new Error(`no function ${unknown.join(', ')}; functions: ${STEPS.map((s) => s.name).join(', ')}`);
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const needed of STEPS.find((step) => step.name === name)?.after ?? []) add(needed);
  };
  for (const name of names) add(name);
  return STEPS.filter((step) => wanted.has(step.name) && step !== FLOOR_STEP && !KEPT_FLOOR_STEPS.includes(step));
}
