import { describe, expect, it } from 'vitest';
import { CONSUMERS, deployedRoutes, ROUTES } from '#lib/service/index';
import { STEPS } from '#test/bench/bundles/steps';
import { FLOOR_ROUTE, KEPT_FLOORS } from '#test/bench/floor/route';

/**
 * The bundles part serves every deployed function a realistic workload (peak RSS, cold
 * requests) and refuses to run when one has none: this finds the missing step at once, not
 * twenty minutes into a run.
 */
const deployed = [...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => row.id);
const stepNames = STEPS.map((step) => step.name);
const floors = [FLOOR_ROUTE, ...KEPT_FLOORS.map((kept) => kept.route)].map((route) => route.id);

describe('the bench workload', () => {
  it('has a step for every function the stack deploys, and for the floor and each kept floor', () => {
    const missing = deployed.filter((id) => !stepNames.includes(id));
    expect(
      missing,
      `give each a step in its area's test/bench/bundles/workload-<area>.ts (the requests it serves; "after", the steps that make what it reads; and a step that deletes what it reads lists it in its own "after"): ${missing.join(', ')}`,
    ).toEqual([]);
    expect(floors.filter((id) => !stepNames.includes(id))).toEqual([]);
  });

  it('has no step for a function the stack does not deploy, and one step per function', () => {
    expect(stepNames.filter((name) => !floors.includes(name) && !deployed.includes(name))).toEqual([]);
    expect(new Set(stepNames).size).toBe(stepNames.length);
  });

  it('runs each step only after steps that exist, in an order with no cycle', () => {
    const done = new Set<string>();
    let pending = [...STEPS];
    while (pending.length > 0) {
      const ready = pending.filter((step) => step.after.every((name) => done.has(name)));
      expect(
        ready.map((step) => step.name),
        `stuck: ${pending.map((step) => step.name).join(', ')}`,
      ).not.toEqual([]);
      for (const step of ready) done.add(step.name);
      pending = pending.filter((step) => !ready.includes(step));
    }
  });
});
