import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { mostCommon } from '#test/bench/bundles/first-calls';
import { KEPT_FLOORS, keptFloorNameFor } from '#test/bench/floor/route';

const floors = KEPT_FLOORS.map(({ route, extras }) => ({ name: route.id, extras }));

describe('the kept floor a function is compared with', () => {
  it('is the one whose extra packages are exactly those the function bundles, in any order', () => {
    expect(keptFloorNameFor(floors, ['metrics'])).toBe('BenchKeptFloorMetrics');
    expect(keptFloorNameFor(floors, ['kms', 'metrics'])).toBe('BenchKeptFloorMetricsKms');
    expect(keptFloorNameFor(floors, ['sqs', 'metrics'])).toBe('BenchKeptFloorMetricsSqs');
    expect(keptFloorNameFor(floors, ['sqs', 'kms', 'metrics'])).toBe('BenchKeptFloorMetricsKmsSqs');
  });

  it('is none for a set of extras no kept floor carries', () => {
    expect(keptFloorNameFor(floors, [])).toBeUndefined();
    expect(keptFloorNameFor(floors, ['kms'])).toBeUndefined();
  });

  it('is bundled as a route like the floor, each at a path of its own', () => {
    const paths = KEPT_FLOORS.map(({ route }) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const { route } of KEPT_FLOORS) expect(existsSync(join(REPO_ROOT, route.handler)), route.handler).toBe(true);
  });
});

describe("a function's first request's calls, over its cold processes", () => {
  it('are the set most processes sent, whatever the order of their keys', () => {
    expect(mostCommon([{ GetItem: 1, STS: 1 }, { STS: 1, GetItem: 1 }, { GetItem: 2, STS: 1 }, {}])).toEqual({
      GetItem: 1,
      STS: 1,
    });
  });

  it('are none when no process sent any', () => {
    expect(mostCommon([])).toEqual({});
  });
});
