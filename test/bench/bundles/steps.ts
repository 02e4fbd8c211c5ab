import { FLOOR_ROUTE } from '../floor/route';
import { cycle, httpEvent } from './lambda-events';
import { type Step, times } from './workload';
import { ACCOUNT_STEPS } from './workload-accounts';
import { PERSON_STEPS } from './workload-persons';
import { SCREENING_STEPS } from './workload-screening';
import { WEBHOOK_STEPS } from './workload-webhooks';

/** The floor's items, put by prepareTable (peak-rss.ts). */
export const FLOOR_ITEMS = 100;

/** The floor reads items by key: half of its reads find one, as a GET of a known id mostly does. */
export const FLOOR_STEP: Step = {
  name: FLOOR_ROUTE.id,
  after: [],
  expect: ['200', '404'],
  events: async (world) =>
    cycle(
      times(FLOOR_ITEMS * 2, (n) => `floor#${n}`),
      world.invocations,
    ).map((id) => httpEvent(FLOOR_ROUTE, { tenant: 'bench-floor', pathParameters: { id } })),
};

/** Every function's workload, the floor's included (workload.ts says how steps feed each other). */
export const STEPS: readonly Step[] = [
  ...ACCOUNT_STEPS,
  ...PERSON_STEPS,
  ...SCREENING_STEPS,
  ...WEBHOOK_STEPS,
  FLOOR_STEP,
];

/**
 * The steps of the functions named and of every step they need (`after`), so a run of a few
 * functions (`--only`) still finds the table as their inputs leave it; the floor's apart.
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
  return STEPS.filter((step) => wanted.has(step.name) && step !== FLOOR_STEP);
}
