import { randomInt } from 'node:crypto';
import * as z from 'zod/mini';

// Which dependencies of the handlers fail, how often and how (docs/local.md#fault-injection):
// the local stand-in for an AWS Fault Injection Service experiment. One plan per run, from
// FAULTS and FAULT_SEED (`npm start`) or from `LocalRuntimeOptions.faults` (tests).

/** The dependencies a fault can be injected into, as FAULTS names them. */
export const FAULT_TARGETS = ['dynamodb', 'queues', 'identity', 'bank', 'webhooks'] as const;
export type FaultTarget = (typeof FAULT_TARGETS)[number];

/**
 * `throttle` and `5xx`: the dependency refuses the call (a 400/429 throttling error, a 500 or
 * 503); `timeout`: no answer within the latency; `reset`: the connection drops without an
 * answer; `slow`: the call goes through after the latency.
 */
export const FAULT_KINDS = ['throttle', '5xx', 'timeout', 'reset', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const DEFAULT_LATENCY_MS = 1000;
const MAX_LATENCY_MS = 60_000;
const MAX_SEED = 2 ** 32 - 1;
const DOCS = 'docs/local.md#fault-injection';
const SYNTAX = '<dependency>=<rate>[:<kind>+<kind>…][@<latency>], comma-separated';

const targetFaults = z.strictObject({
  /** The share of calls that get a fault. */
  rate: z
    .number()
    .check(
      z.gte(0, 'the rate is a share of calls: 0–1, or 0%–100%'),
      z.lte(1, 'the rate is a share of calls: 0–1, or 0%–100%'),
    ),
  /** Drawn evenly among these for a call that gets a fault. */
  kinds: z._default(
    z
      .array(
        z.enum(FAULT_KINDS, {
          error: (issue) => `unknown fault kind ${JSON.stringify(issue.input)}: one of ${FAULT_KINDS.join(', ')}`,
        }),
      )
      .check(z.minLength(1, 'name at least one kind of fault after ":"')),
    () => [...FAULT_KINDS],
  ),
  /** How long `slow` delays a call and `timeout` waits before failing it. */
  latencyMs: z._default(
    z
      .int()
      .check(
        z.gte(0, 'the latency is not negative'),
        z.lte(MAX_LATENCY_MS, `the latency is at most ${MAX_LATENCY_MS} ms`),
      ),
    DEFAULT_LATENCY_MS,
  ),
});

const off = () => ({ rate: 0, kinds: [...FAULT_KINDS], latencyMs: DEFAULT_LATENCY_MS });

const faultPlanSchema = z.strictObject({
  /** Seeds every draw, so a run's faults can be replayed (FAULT_SEED). */
  seed: z._default(
    z
      .int()
      .check(
        z.gte(0, 'the seed is a whole number 0–4294967295'),
        z.lte(MAX_SEED, 'the seed is a whole number 0–4294967295'),
      ),
    () => randomInt(0, MAX_SEED + 1),
  ),
  dynamodb: z._default(targetFaults, off),
  queues: z._default(targetFaults, off),
  identity: z._default(targetFaults, off),
  bank: z._default(targetFaults, off),
  webhooks: z._default(targetFaults, off),
});

export type FaultPlan = z.output<typeof faultPlanSchema>;
/** A plan as written: any dependency left out gets no faults, kinds default to all, the seed to a random one. */
export type FaultPlanInput = z.input<typeof faultPlanSchema>;
export type TargetFaults = FaultPlan[FaultTarget];

/** A FAULTS or FAULT_SEED value that cannot be read: its message is one line naming the value and the fix. */
export class FaultSettingError extends Error {
  override readonly name = 'FaultSettingError';
}

/** The plan of `LocalRuntimeOptions.faults`: an object (defaults filled in) or the FAULTS string form. */
export function faultPlan(input: FaultPlanInput | string): FaultPlan {
  return typeof input === 'string' ? parseFaultSetting(input) : validated(input, (why) => `faults: ${why}`);
}

/**
 * Reads FAULTS (and FAULT_SEED): `all=5%`, `dynamodb=5%,webhooks=20%:5xx+timeout`,
 * `bank=0.5:slow@2s`. A later entry replaces an earlier one for the same dependency.
 */
export function parseFaultSetting(setting: string, seed?: string): FaultPlan {
  const fail = (why: string) => new FaultSettingError(`FAULTS="${setting}": ${why} (syntax: ${SYNTAX}; ${DOCS})`);
  const input: Record<string, unknown> = {};
  for (const entry of setting.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const match = /^([^=:@]+)=([^:@]*)(?::([^@]*))?(?:@(.*))?$/.exec(entry);
    if (!match) throw fail(`"${entry}" is not <dependency>=<rate>`);
    const [, name = '', rate = '', kinds, latency] = match;
    const faults = {
      rate: rateOf(rate, fail),
      ...(kinds !== undefined && { kinds: kinds === '' ? [] : kinds.split('+') }),
      ...(latency !== undefined && { latencyMs: latencyOf(latency, fail) }),
    };
    for (const target of name === 'all' ? FAULT_TARGETS : [name]) input[target] = faults;
  }
  if (seed !== undefined && seed.trim() !== '') {
    const value = /^\d+$/.test(seed.trim()) ? Number(seed) : Number.NaN;
    if (!Number.isSafeInteger(value) || value > MAX_SEED) {
      throw new FaultSettingError(`FAULT_SEED="${seed}": the seed is a whole number 0–${MAX_SEED} (${DOCS})`);
    }
    input.seed = value;
  }
  return validated(input, (why) => fail(why).message);
}

/** `5%` or a share, `0.05`. A bare number above 1 is refused rather than guessed a percentage. */
function rateOf(text: string, fail: (why: string) => Error): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(text.trim());
  if (!match) throw fail(`rate "${text}" is not a number`);
  const value = Number(match[1]);
  return match[2] === '%' ? value / 100 : value;
}

function latencyOf(text: string, fail: (why: string) => Error): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(text.trim());
  if (!match) throw fail(`latency "${text}" is not a duration like 250ms or 2s`);
  return Math.round(Number(match[1]) * (match[2] === 's' ? 1000 : 1));
}

/** The schema's verdict as one line: the first problem, with the dependency it is about. */
function validated(input: unknown, message: (why: string) => string): FaultPlan {
  const result = z.safeParse(faultPlanSchema, input);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const why =
    unknownKey !== undefined && issue?.path.length === 0
      ? `unknown dependency "${unknownKey}": one of all, ${FAULT_TARGETS.join(', ')}`
      : `${issue?.path.filter((part) => typeof part !== 'number').join('.')}: ${issue?.message}`;
  throw new FaultSettingError(message(why));
}

/** One line for the start-up banner: which dependencies fail, how often and how, and the seed. */
export function describeFaultPlan(plan: FaultPlan): string {
  const on = FAULT_TARGETS.filter((target) => plan[target].rate > 0);
  if (on.length === 0) return `Faults: none, every rate is 0 (${DOCS})`;
  const described = on.map((target) => {
    const { rate, kinds, latencyMs } = plan[target];
    const named = kinds.map((kind) => (kind === 'slow' || kind === 'timeout' ? `${kind} ${latencyMs} ms` : kind));
    return `${target} ${percent(rate)} (${named.join(', ')})`;
  });
  return `Faults: ${described.join(', ')}; seed ${plan.seed}, FAULT_SEED=${plan.seed} replays the draws (${DOCS})`;
}

const percent = (rate: number): string => `${Number((rate * 100).toPrecision(6))}%`;
