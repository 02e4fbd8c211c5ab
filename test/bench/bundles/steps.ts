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
