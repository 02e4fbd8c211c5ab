import type { VerificationType } from '#domain/verify-account';
import {
  MODEL,
  PRICES,
  type PricedLine,
  priceUsage,
  requestsUsdPerMillion,
  totalUsdPerMillion,
  type Usage,
} from './cost-model';
import type { Invocation } from './metering';
import type { CostFigures } from './results';
import { median, round } from './stats';
import { perVerification, textTable } from './text-table';

/**
 * The metered invocations of some verifications (test/bench/cost.ts) as the bill of one:
 * its usage of each service, its steps (what each function did), the priced lines; for
 * the terminal and for the results file.
 */

/** One step of a verification: one function's invocations for one kind of work. */
export interface StepRow {
  readonly step: string;
  readonly invocations: number;
  /** The DynamoDB calls per verification, e.g. `Query + TransactWriteItems + UpdateItem`. */
  readonly calls: string;
  readonly wru: number;
  readonly rru: number;
  readonly sqsRequests: number;
  readonly kmsRequests: number;
  readonly emails: number;
  /** Median local duration of its invocations (ms). */
  readonly ms: number;
  readonly logBytes: number;
}

export interface CostReport {
  readonly type: VerificationType;
  /** How the verifications were offered, e.g. `one at a time` or `300 offered at 50/s`. */
  readonly load: string;
  readonly verifications: number;
  readonly usage: Usage;
  readonly steps: readonly StepRow[];
  readonly lines: readonly PricedLine[];
  /** The goal's figure (REQUEST_SERVICES). */
  readonly usdPerMillion: number;
  /** Every priced line. */
  readonly allInUsdPerMillion: number;
}

export function costReport(
  type: VerificationType,
  verifications: number,
  invocations: readonly Invocation[],
  bytesOut: number,
  options: {
    readonly load: string;
    /** `function` when batches mix kinds of records (a sustained load): one row per function. */
    readonly steps?: 'kind' | 'function';
    /**
     * Lambda compute per verification measured elsewhere, when these invocations' local
     * durations measure waiting rather than work (many at once in one process on shared cores).
     */
    readonly gbSecondsPerVerification?: number;
  },
): CostReport {
  const per = (value: number) => value / verifications;
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const calls = invocations.flatMap((invocation) => invocation.dynamo);
  const queueBatches = invocations.filter((invocation) => invocation.source === 'queue').length;
  const usage: Usage = {
    dynamodb: {
      writeRequestUnits: per(sum(calls.map((call) => call.writeUnits))),
      readRequestUnits: per(sum(calls.map((call) => call.readUnits))),
    },
    lambda: {
      invocations: per(invocations.length),
      gbSeconds: options.gbSecondsPerVerification ?? per(sum([...byStep(invocations).values()].map(billedGbSeconds))),
    },
    sqs: {
      sendRequests: per(sum(invocations.flatMap((i) => i.sqs.map((send) => send.requests)))),
      receiveRequests: per(queueBatches),
      deleteRequests: per(queueBatches),
    },
    kms: { requests: per(sum(invocations.map((i) => i.kms.length))) },
    ses: { emails: per(sum(invocations.map((i) => i.emails))) },
    apiGateway: { requests: per(invocations.filter((i) => i.source === 'http').length) },
    logs: {
      bytes: per(
        sum(
          invocations.map(
            (i) => i.logBytes + i.logLines * MODEL.logEventOverheadBytes + MODEL.platformLogBytesPerInvocation,
          ),
        ),
      ),
    },
    xray: { traces: per(invocations.length * MODEL.xrayTracedFraction) },
    dataTransfer: { bytesOut: per(bytesOut) },
  };
  const lines = priceUsage(usage);
  const steps = options.steps === 'function' ? invocations.map((i) => ({ ...i, label: i.fn })) : invocations;
  return {
    type,
    load: options.load,
    verifications,
    usage,
    steps: stepRows(steps, verifications),
    lines,
    usdPerMillion: requestsUsdPerMillion(lines),
    allInUsdPerMillion: totalUsdPerMillion(lines),
  };
}

/**
 * A step's invocations as Lambda bills them: per started millisecond, at the function's
 * memory. Each at the step's median duration: the machine is shared, and one slow
 * invocation would otherwise swing the total.
 */
const billedGbSeconds = (group: readonly Invocation[]): number =>
  ((group.length * Math.ceil(median(group.map((invocation) => invocation.durationMs)))) / 1000) * MODEL.lambdaMemoryGb;

/** Invocations grouped by what they did, in the order each kind first ran. */
function byStep(invocations: readonly Invocation[]): Map<string, Invocation[]> {
  const groups = new Map<string, Invocation[]>();
  for (const invocation of [...invocations].sort((a, b) => a.startedAt - b.startedAt)) {
    groups.set(invocation.label, [...(groups.get(invocation.label) ?? []), invocation]);
  }
  return groups;
}

function stepRows(invocations: readonly Invocation[], verifications: number): StepRow[] {
  const groups = byStep(invocations);
  const per = (value: number) => perVerification(value / verifications);
  return [...groups].map(([step, group]) => {
    const calls = group.flatMap((invocation) => invocation.dynamo);
    const byOperation = new Map<string, number>();
    for (const call of calls) {
      const name = call.error ? `${call.operation} (${call.error})` : call.operation;
      byOperation.set(name, (byOperation.get(name) ?? 0) + 1);
    }
    const sum = (pick: (invocation: Invocation) => number) => group.reduce((total, i) => total + pick(i), 0);
    return {
      step,
      invocations: per(group.length),
      calls: [...byOperation]
        .map(([operation, n]) => (n === verifications ? operation : `${operation} ×${per(n)}`))
        .join(' + '),
      wru: per(calls.reduce((total, call) => total + call.writeUnits, 0)),
      rru: per(calls.reduce((total, call) => total + call.readUnits, 0)),
      sqsRequests: per(
        sum((i) => i.sqs.reduce((total, send) => total + send.requests, 0) + (i.source === 'queue' ? 2 : 0)),
      ),
      kmsRequests: per(sum((i) => i.kms.length)),
      emails: per(sum((i) => i.emails)),
      ms: round(median(group.map((i) => i.durationMs))),
      logBytes: Math.round(sum((i) => i.logBytes) / verifications),
    };
  });
}

/** The report as the terminal shows it: the steps, then the bill. */
export function describeReport(report: CostReport): string[] {
  const { steps, lines } = report;
  const total = (pick: (row: StepRow) => number) => perVerification(steps.reduce((sum, row) => sum + pick(row), 0));
  return [
    `cost of one ${report.type} verification, ${report.load} (average of ${report.verifications}; SQS includes the pollers' receive + delete per batch):`,
    ...textTable(
      ['step', 'inv', 'DynamoDB calls', 'WRU', 'RRU', 'SQS', 'KMS', 'email', 'median ms (local)', 'log B'],
      [
        ...steps.map((row) => [
          row.step,
          row.invocations,
          row.calls,
          row.wru,
          row.rru,
          row.sqsRequests,
          row.kmsRequests,
          row.emails,
          row.ms,
          row.logBytes,
        ]),
        [
          'total',
          total((row) => row.invocations),
          '',
          total((row) => row.wru),
          total((row) => row.rru),
          total((row) => row.sqsRequests),
          total((row) => row.kmsRequests),
          total((row) => row.emails),
          '',
          total((row) => row.logBytes),
        ],
      ],
    ),
    `on-demand us-east-1 prices as of ${PRICES.asOf}:`,
    ...textTable(
      ['service', 'kind', 'per verification', 'unit', 'USD per million'],
      [
        ...[...lines]
          .sort((a, b) => b.usdPerMillion - a.usdPerMillion)
          .map((line) => [
            line.service,
            line.kind,
            perVerification(line.perVerification),
            line.unit,
            round(line.usdPerMillion, 2),
          ]),
        ['total (goal: DynamoDB, Lambda, SQS, KMS, SES, API)', '', '', '', round(report.usdPerMillion, 2)],
        ['total with logs, tracing, transfer', '', '', '', round(report.allInUsdPerMillion, 2)],
      ],
    ),
  ];
}

/** The results file's slice: totals, and every line as `<service>.<kind>` (per verification) and its dollars. */
export function costFigures(report: CostReport): CostFigures {
  const breakdown: Record<string, number> = {};
  for (const line of report.lines) {
    breakdown[`${line.service}.${line.kind}`] = round(line.perVerification, 3);
    breakdown[`${line.service}.${line.kind}.usd_per_million`] = round(line.usdPerMillion, 3);
  }
  return {
    usd_per_million_verifications: round(report.usdPerMillion, 2),
    usd_per_million_all_in: round(report.allInUsdPerMillion, 2),
    wcu_per_verification: round(report.usage.dynamodb.writeRequestUnits, 2),
    rcu_per_verification: round(report.usage.dynamodb.readRequestUnits, 2),
    invocations_per_verification: round(report.usage.lambda.invocations, 2),
    breakdown,
  };
}
