import { describe, expect, it } from 'vitest';
import { ROUTES } from '#lib/service/index';
import { overheadScenarios } from '#test/bench/overhead-scenarios';

/**
 * The overhead part measures every route and stops at one it has no scenario for: this finds
 * the missing scenario at once, not ten minutes into `npm run bench` (two routes had none).
 */
describe('the overhead bench', () => {
  it('has a scenario for every route', () => {
    const scenarios = overheadScenarios({} as never, 'bench-overhead');
    const missing = ROUTES.map((route) => route.id).filter((id) => !(id in scenarios));
    expect(
      missing,
      `give each a scenario in test/bench/overhead-scenarios.ts (what its request sends, and the records it needs made first): ${missing.join(', ')}`,
    ).toEqual([]);
  });
});
