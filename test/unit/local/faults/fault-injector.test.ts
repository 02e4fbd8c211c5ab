import { describe, expect, it } from 'vitest';
import { FaultInjector } from '#lib/local/faults/fault-injector';
import { type FaultPlanInput, faultPlan } from '#lib/local/faults/fault-plan';
import { mulberry32 } from '#lib/local/faults/mulberry32';

const armed = (input: FaultPlanInput): FaultInjector => {
  const injector = new FaultInjector(faultPlan(input));
  injector.arm();
  return injector;
};
const draws = (injector: FaultInjector, target: 'dynamodb' | 'webhooks', n: number) =>
  Array.from({ length: n }, () => injector.draw(target)?.kind ?? '-');

describe('mulberry32', () => {
  it('gives the same sequence for the same seed, another for another, always in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const first = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(first);
    expect(Array.from({ length: 1000 }, () => c())).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('spreads its values evenly: each tenth of [0, 1) gets about a tenth of 100,000 draws', () => {
    const next = mulberry32(7);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) buckets[Math.floor(next() * 10)]! += 1;
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});

describe('the fault injector', () => {
  it('injects into about the planned share of calls, the kinds drawn evenly among those allowed', () => {
    const injector = armed({ seed: 1, dynamodb: { rate: 0.05, kinds: ['throttle', '5xx'] } });
    draws(injector, 'dynamodb', 20_000);
    const { calls, injected } = injector.counts().dynamodb;
    expect(calls).toBe(20_000);
    const total = (injected.throttle ?? 0) + (injected['5xx'] ?? 0);
    expect(Math.abs(total - 1000)).toBeLessThan(100);
    expect(Math.abs((injected.throttle ?? 0) - (injected['5xx'] ?? 0))).toBeLessThan(120);
    expect(Object.keys(injected).sort()).toEqual(['5xx', 'throttle']);
  });

  it('replays the same faults for the same seed, call by call', () => {
    const plan = { seed: 42, dynamodb: { rate: 0.3 } };
    expect(draws(armed(plan), 'dynamodb', 200)).toEqual(draws(armed(plan), 'dynamodb', 200));
    expect(draws(armed({ ...plan, seed: 43 }), 'dynamodb', 200)).not.toEqual(draws(armed(plan), 'dynamodb', 200));
  });

  it('draws each dependency from its own sequence: calls to one never shift another’s faults', () => {
    const plan = { seed: 9, dynamodb: { rate: 0.3 }, webhooks: { rate: 0.3 } };
    const alone = draws(armed(plan), 'webhooks', 100);
    const busy = armed(plan);
    draws(busy, 'dynamodb', 537);
    expect(draws(busy, 'webhooks', 100)).toEqual(alone);
  });

  it('fails every call at rate 1 and none at rate 0, with the plan’s latency', () => {
    const injector = armed({ dynamodb: { rate: 1, kinds: ['slow'], latencyMs: 250 }, webhooks: { rate: 0 } });
    expect(injector.draw('dynamodb')).toMatchObject({ kind: 'slow', latencyMs: 250 });
    expect(draws(injector, 'dynamodb', 100)).toEqual(new Array(100).fill('slow'));
    expect(draws(injector, 'webhooks', 100)).toEqual(new Array(100).fill('-'));
  });

  it('injects nothing, and counts nothing, until it is armed (the runtime arms it once started)', () => {
    const injector = new FaultInjector(faultPlan({ dynamodb: { rate: 1 } }));
    expect(injector.draw('dynamodb')).toBeUndefined();
    expect(injector.counts().dynamodb).toEqual({ calls: 0, injected: {} });
    injector.arm();
    expect(injector.draw('dynamodb')).toBeDefined();
  });

  it('sums up what it injected in one line for the stop log', () => {
    const injector = armed({ seed: 5, dynamodb: { rate: 1, kinds: ['throttle'] }, webhooks: { rate: 0.5 } });
    draws(injector, 'dynamodb', 3);
    expect(injector.summary()).toBe('faults injected: dynamodb 3 of 3 calls (throttle 3), webhooks 0 of 0 calls');
  });
});
