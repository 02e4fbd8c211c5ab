import { describe, expect, it } from 'vitest';
import { KEPT_FLOORS, keptFloorNameFor } from '#test/bench/floor/route';

const floors = KEPT_FLOORS.map(({ route, extras }) => ({ name: route.id, extras }));

describe('the kept floor a function is compared with', () => {
  it('is the one whose extra clients are exactly those the function bundles, in any order', () => {
    expect(keptFloorNameFor(floors, [])).toBe('BenchKeptFloor');
    expect(keptFloorNameFor(floors, ['kms'])).toBe('BenchKeptFloorKms');
    expect(keptFloorNameFor(floors, ['sqs'])).toBe('BenchKeptFloorSqs');
    expect(keptFloorNameFor(floors, ['sqs', 'kms'])).toBe('BenchKeptFloorKmsSqs');
  });

  it('is none when no kept floor carries the same clients', () => {
    expect(keptFloorNameFor(floors.slice(0, 1), ['kms'])).toBeUndefined();
  });

  it('is bundled as a route like the floor, each at a path of its own', () => {
    const paths = KEPT_FLOORS.map(({ route }) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const { route } of KEPT_FLOORS) expect(route.handler).toMatch(/^test\/bench\/floor\/kept-.*handler\.ts$/);
  });
});
