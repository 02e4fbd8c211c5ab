import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LATENCY_MS,
  describeFaultPlan,
  FAULT_KINDS,
  FaultSettingError,
  faultPlan,
  parseFaultSetting,
} from '#lib/local/faults/fault-plan';

const OFF = { rate: 0, kinds: [...FAULT_KINDS], latencyMs: DEFAULT_LATENCY_MS };
const EVERY_KIND = [...FAULT_KINDS];

describe('the FAULTS setting', () => {
  it('reads all=5% as every dependency failing 5 % of its calls, with every kind of fault', () => {
    const plan = parseFaultSetting('all=5%', '42');
    const on = { rate: 0.05, kinds: EVERY_KIND, latencyMs: DEFAULT_LATENCY_MS };
    expect(plan).toEqual({ seed: 42, dynamodb: on, queues: on, identity: on, bank: on, webhooks: on });
  });

  it('reads one entry per dependency, with its kinds joined by + and its latency after @', () => {
    const plan = parseFaultSetting('dynamodb=5%, webhooks=20%:5xx+timeout@250ms,bank=0.5:slow@2s');
    expect(plan.dynamodb).toEqual({ rate: 0.05, kinds: EVERY_KIND, latencyMs: DEFAULT_LATENCY_MS });
    expect(plan.webhooks).toEqual({ rate: 0.2, kinds: ['5xx', 'timeout'], latencyMs: 250 });
    expect(plan.bank).toEqual({ rate: 0.5, kinds: ['slow'], latencyMs: 2000 });
    expect(plan.queues).toEqual(OFF);
    expect(plan.identity).toEqual(OFF);
  });

  it('lets a later entry replace an earlier one, so all=5%,webhooks=0 spares the receivers', () => {
    const plan = parseFaultSetting('all=5%:throttle,webhooks=0');
    expect(plan.webhooks.rate).toBe(0);
    expect(plan.dynamodb).toMatchObject({ rate: 0.05, kinds: ['throttle'] });
  });

  it('takes the seed from FAULT_SEED, and picks (and names) a random one without it', () => {
    expect(parseFaultSetting('all=1%', '7').seed).toBe(7);
    const { seed } = parseFaultSetting('all=1%');
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
    expect(describeFaultPlan({ ...parseFaultSetting('all=1%'), seed: 99 })).toContain('FAULT_SEED=99');
  });

  it.each([
    ['dynamo=5%', 'unknown dependency "dynamo": one of all, dynamodb, queues, identity, bank, webhooks'],
    ['dynamodb', '"dynamodb" is not <dependency>=<rate>'],
    ['dynamodb=150%', 'the rate is a share of calls: 0–1, or 0%–100%'],
    ['dynamodb=5', 'the rate is a share of calls: 0–1, or 0%–100%'],
    ['dynamodb=lots', 'rate "lots" is not a number'],
    ['webhooks=20%:503', 'unknown fault kind "503": one of throttle, 5xx, timeout, reset, slow'],
    ['webhooks=20%:', 'name at least one kind of fault after ":"'],
    ['dynamodb=5%:slow@soon', 'latency "soon" is not a duration like 250ms or 2s'],
    ['dynamodb=5%:slow@5min', 'latency "5min" is not a duration like 250ms or 2s'],
    ['dynamodb=5%:slow@90s', 'the latency is at most 60000 ms'],
  ])('refuses %s in one line that says why and where the syntax is', (setting, why) => {
    let thrown: unknown;
    try {
      parseFaultSetting(setting);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FaultSettingError);
    const { message } = thrown as Error;
    expect(message).toContain(why);
    expect(message).toContain(`FAULTS="${setting}"`);
    expect(message).toContain('docs/local.md#fault-injection');
    expect(message).not.toContain('\n');
  });

  it.each(['-1', '1.5', 'x', String(2 ** 32)])('refuses FAULT_SEED=%s', (seed) => {
    expect(() => parseFaultSetting('all=1%', seed)).toThrow(
      /FAULT_SEED="[^"]*": the seed is a whole number 0–4294967295/,
    );
  });

  it('takes the same plan as an object, defaults filled in, or as the string form', () => {
    expect(faultPlan({ seed: 3, webhooks: { rate: 1, kinds: ['5xx'] } })).toEqual({
      seed: 3,
      dynamodb: OFF,
      queues: OFF,
      identity: OFF,
      bank: OFF,
      webhooks: { rate: 1, kinds: ['5xx'], latencyMs: DEFAULT_LATENCY_MS },
    });
    expect(faultPlan('webhooks=100%:5xx').webhooks).toEqual({ rate: 1, kinds: ['5xx'], latencyMs: DEFAULT_LATENCY_MS });
    expect(() => faultPlan({ bank: { rate: 2 } })).toThrow(/bank\.rate: the rate is a share of calls/);
    expect(() => faultPlan({ banks: { rate: 1 } } as never)).toThrow(/unknown dependency "banks"/);
  });

  it('says in one line which faults are on, and that none are when every rate is 0', () => {
    const plan = parseFaultSetting('dynamodb=5%:throttle+slow@300ms,webhooks=20%:5xx', '42');
    expect(describeFaultPlan(plan)).toBe(
      'Faults: dynamodb 5% (throttle, slow 300 ms), webhooks 20% (5xx); seed 42, FAULT_SEED=42 replays the draws (docs/local.md#fault-injection)',
    );
    expect(describeFaultPlan(parseFaultSetting('all=0', '1'))).toBe(
      'Faults: none, every rate is 0 (docs/local.md#fault-injection)',
    );
  });
});
