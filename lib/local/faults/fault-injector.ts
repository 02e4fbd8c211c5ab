import { FAULT_TARGETS, type FaultKind, type FaultPlan, type FaultTarget } from './fault-plan';
import { mulberry32 } from './mulberry32';

/** One drawn fault: what to do to the call in hand. */
export interface Fault {
  readonly kind: FaultKind;
  /** How long `slow` delays the call and `timeout` waits before failing it. */
  readonly latencyMs: number;
  /** In [0, 1), from the same seeded draws: picks among a kind's variants (a 500 or a 503). */
  readonly roll: number;
}

/** Calls a dependency got from the handlers since the runtime was ready, and the faults injected into them, by kind. */
export type FaultCounts = Record<FaultTarget, { calls: number; injected: Partial<Record<FaultKind, number>> }>;

/**
 * Draws, call by call, whether a dependency fails and how, and counts what it injected.
 * Each dependency draws from its own generator, seeded from the plan's seed and its name:
 * the n-th call to a dependency gets the same fault in every run with that seed, however
 * many calls the others got in between (which request is the n-th can still differ when
 * requests run at once).
 */
export class FaultInjector {
  private armed = false;
  private readonly random: Record<FaultTarget, () => number>;
  private readonly tally = Object.fromEntries(
    FAULT_TARGETS.map((target) => [target, { calls: 0, injected: {} }]),
  ) as FaultCounts;

  constructor(readonly plan: FaultPlan) {
    this.random = Object.fromEntries(
      FAULT_TARGETS.map((target, index) => [target, mulberry32(plan.seed ^ Math.imul(index + 1, 0x9e3779b9))]),
    ) as Record<FaultTarget, () => number>;
  }

  /** From now on calls are drawn and counted; before, while the runtime starts (loading lists), none fail. */
  arm(): void {
    this.armed = true;
  }

  /** The fault for this call of `target`, or undefined for none. */
  draw(target: FaultTarget): Fault | undefined {
    if (!this.armed) return undefined;
    const { rate, kinds, latencyMs } = this.plan[target];
    const tally = this.tally[target];
    tally.calls += 1;
    const random = this.random[target];
    if (rate === 0 || random() >= rate) return undefined;
    const kind = kinds[Math.floor(random() * kinds.length)] ?? 'slow';
    tally.injected[kind] = (tally.injected[kind] ?? 0) + 1;
    return { kind, latencyMs, roll: random() };
  }

  counts(): FaultCounts {
    return structuredClone(this.tally);
  }

  /** e.g. `faults injected: dynamodb 12 of 240 calls (throttle 5, 5xx 7), webhooks 0 of 3 calls`. */
  summary(): string {
    const lines = FAULT_TARGETS.filter((target) => this.plan[target].rate > 0).map((target) => {
      const { calls, injected } = this.tally[target];
      const kinds = Object.entries(injected).map(([kind, count]) => `${kind} ${count}`);
      const total = Object.values(injected).reduce((sum, count) => sum + count, 0);
      return `${target} ${total} of ${calls} calls${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`;
    });
    return `faults injected: ${lines.length > 0 ? lines.join(', ') : 'none, every rate is 0'}`;
  }
}
