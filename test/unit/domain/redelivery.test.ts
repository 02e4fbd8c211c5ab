import { describe, expect, it } from 'vitest';
import { admit, EVENT_REDELIVERIES, type PacedLimit, TENANT_REDELIVERIES } from '#domain/redelivery';

/** Admits requests at the given times, applying each admission as the table write would. */
function run(limit: PacedLimit, times: number[]) {
  let tat: number | undefined;
  return times.map((now) => {
    const admission = admit(tat, limit, now);
    if (admission.allowed)
      tat = admission.write === 'start' ? now + limit.intervalMs : (tat as number) + limit.intervalMs;
    return admission;
  });
}

describe('redelivery pacing (GCRA)', () => {
  it('admits an event’s 5 redeliveries at once, refuses the 6th for 4.8 hours, then admits one more', () => {
    const hour = 3_600_000;
    const answers = run(EVENT_REDELIVERIES, [0, 0, 0, 0, 0, 0, 4.8 * hour - 1000, 4.8 * hour, 4.8 * hour]);
    expect(answers.slice(0, 5).every((a) => a.allowed)).toBe(true);
    expect(answers[5]).toEqual({ allowed: false, retryAfterSeconds: 4.8 * 3600 });
    expect(answers[6]).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(answers[7]?.allowed).toBe(true);
    expect(answers[8]?.allowed).toBe(false);
  });

  it('never admits more than burst + elapsed / interval, however requests are spread', () => {
    const times = Array.from({ length: 200 }, (_, i) => Math.floor(i * 137.3) % 20_000).sort((a, b) => a - b);
    const admitted = run(TENANT_REDELIVERIES, times).filter((a) => a.allowed).length;
    expect(admitted).toBeLessThanOrEqual(TENANT_REDELIVERIES.burst + 20);
    expect(admitted).toBeGreaterThanOrEqual(TENANT_REDELIVERIES.burst + 19);
  });

  it('starts afresh once idle: the stored time in the past counts as none', () => {
    expect(admit(500, TENANT_REDELIVERIES, 1_000)).toEqual({ allowed: true, write: 'start' });
    expect(admit(undefined, TENANT_REDELIVERIES, 1_000)).toEqual({ allowed: true, write: 'start' });
    expect(admit(1_500, TENANT_REDELIVERIES, 1_000)).toEqual({ allowed: true, write: 'advance' });
  });
});
