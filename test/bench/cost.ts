import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { VERIFICATION_TYPES, type VerificationType } from '#domain/verify-account';
import type { BenchContext, BenchPart } from './context';
import { type CostReport, costFigures, costReport, describeReport } from './cost-report';
import { measureSustainedCost } from './cost-sustained';
import { type BenchService, createBody } from './local-service';
import { accountArrivals, startMeteredService, stopMeteredService } from './metered-service';
import type { CostResults } from './results';
import { isMain, runStandalone } from './standalone';
import { round } from './stats';

/**
 * Cost model, part of `npm run bench` (issues 11 and 12): full verifications through the
 * local runtime — API create → the worker settles it → the router stores the event → the
 * sender fans it out → the delivery worker POSTs it to a receiver; for the control types
 * also the statement-code submission and the events it emits — with every DynamoDB call's
 * consumed capacity, every Lambda invocation, SQS request, KMS call, email and log byte
 * counted (test/bench/metering.ts), priced at on-demand rates (test/bench/cost-model.ts).
 *
 * Two loads. One verification at a time: nothing is batched with another verification's
 * records, the bill at low traffic, the most a verification costs. And a sustained load
 * (test/bench/cost-sustained.ts): verifications offered at a steady rate, whose stream
 * records and queue messages the local pollers batch as Lambda's do; the goal's figure.
 *
 * Not counted, because AWS does not bill them per verification:
 * - DynamoDB Streams reads: GetRecords by a Lambda event source mapping is free ("Read
 *   requests made by AWS Lambda-based consumers of DynamoDB Streams are free",
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CostOptimization_StreamsUsage.html).
 *   Records the stream filters drop cost no invocation either.
 * - KMS calls for the storage key: DynamoDB decrypts the table key and caches it (5 min
 *   per connection); SQS reuses a queue's data key for the data-key-reuse period (1 h,
 *   lib/constructs/queue.ts). Per verification that is ≈ 0; the cipher key's calls (SSNs,
 *   webhook secrets) are counted.
 * - The tenant's alias and rate policy reads: cached for 5 minutes per function instance
 *   (functions/shared/http/middlewares.ts); the warm-up verification fills the cache.
 * - Lambda's INIT phase (billed since August 2025): once per function instance, which
 *   serves many verifications; the warm-up verification takes the cold starts.
 * - Idle SQS long polls and X-Ray's 1-trace-a-second reservoir: fixed monthly amounts.
 * Lambda durations are measured locally (in-process handlers on DynamoDB Local, whose
 * calls take ~1 ms where DynamoDB's take a few): read compute as an estimate.
 */

export interface CostOptions {
  /** Default `status`. The `control` types include the holder's statement-code submission. */
  readonly type?: VerificationType;
  /** Verifications measured (after one warm-up); the figures are their average. Default 5. */
  readonly verifications?: number;
  /** Send an `Idempotency-Key` with the create, as a careful partner does. Default false. */
  readonly idempotencyKey?: boolean;
}

/** The types whose cost the results report (issue 12). */
const REPORTED_TYPES = ['status', 'status_ownership', 'control_ownership'] as const;

/** The sandbox's statement code (docs/sandbox.md#control): always `0000` for a valid account. */
const SANDBOX_STATEMENT_CODE = '0000';

/** The cost part of `npm run bench`: each reported type one at a time, then `status` under a sustained load. */
export const measureCost: BenchPart<CostResults> = async (context) => {
  const byType = {} as Record<(typeof REPORTED_TYPES)[number], CostReport>;
  for (const type of REPORTED_TYPES) byType[type] = await measureVerificationCost(context, { type });
  const oneAtATime = byType.status;
  const sustained = await measureSustainedCost(context, {
    gbSecondsPerVerification: oneAtATime.usage.lambda.gbSeconds,
  });
  const ceiling = sustained.capacity['8'] ?? Object.values(sustained.capacity)[0];
  const results: CostResults = {
    ...costFigures(sustained.report),
    load: sustained.report.load,
    usd_per_million_one_at_a_time: round(oneAtATime.usdPerMillion, 2),
    breakdown_one_at_a_time: costFigures(oneAtATime).breakdown,
    usd_per_million_by_type: {
      status: round(byType.status.usdPerMillion, 2),
      status_ownership: round(byType.status_ownership.usdPerMillion, 2),
      control_ownership: round(byType.control_ownership.usdPerMillion, 2),
    },
    tenant_ceiling_verifications_per_s: ceiling?.tenant_ceiling_verifications_per_s ?? 0,
    capacity: sustained.capacity,
  };
  context.log(
    [
      'cost per million verifications (goal: DynamoDB, Lambda, SQS, KMS, SES, API):',
      `  status, ${results.load}: $${results.usd_per_million_verifications} (the goal's figure; Lambda compute priced from the one-at-a-time durations)`,
      ...Object.entries(results.usd_per_million_by_type).map(([type, usd]) => `  ${type}, one at a time: $${usd}`),
      `tenant ceiling (8 list shards): ${results.tenant_ceiling_verifications_per_s} verifications/s`,
    ].join('\n'),
  );
  return results;
};

/** `count` verifications of one type, one at a time, after a warm-up one; their average bill. */
export async function measureVerificationCost(context: BenchContext, options: CostOptions = {}): Promise<CostReport> {
  const type = options.type ?? 'status';
  const count = options.verifications ?? 5;
  const { service, meter } = await startMeteredService(context, { part: `cost-${type.replaceAll('_', '-')}` });
  try {
    context.log(
      `cost: one warm-up ${type} verification, then ${count} measured, one at a time ` +
        `(load average ${loadavg()[0]?.toFixed(2)}: it slows the local durations Lambda compute is priced from)`,
    );
    await verify(service, type, options);
    meter.recording = true;
    let bytesOut = 0;
    for (let n = 0; n < count; n++) bytesOut += await verify(service, type, options);
    meter.recording = false;
    const report = costReport(type, count, meter.invocations, bytesOut, { load: 'one at a time' });
    for (const line of describeReport(report)) context.log(line);
    return report;
  } finally {
    await stopMeteredService(service);
  }
}

/**
 * One verification from the create to its last webhook's 204 — for the control types
 * through the statement-code submission (the sandbox's code) and the events it emits —
 * and the pipeline at rest; resolves with the bytes sent out to the internet (the API's
 * answers and the webhook requests).
 */
async function verify(service: BenchService, type: VerificationType, options: CostOptions): Promise<number> {
  const headers = options.idempotencyKey ? { 'idempotency-key': randomUUID() } : undefined;
  const created = await service.call('POST', '/verify/accounts', createBody(type), headers);
  const id = String(created.body.account.id);
  const delivered = async (what: string, predicate: (account: Record<string, unknown>) => boolean) => {
    const arrived = () => accountArrivals(service.receiver, id).some((a) => predicate(a.envelope.event_data.account));
    if (!(await service.receiver.until(arrived, Date.now() + 30_000))) {
      throw new Error(`verify account ${id}: no webhook of ${what} within 30 s`);
    }
    // The delivery attempt is recorded after the 204: wait for the whole pipeline to rest.
    await service.runtime.settle(30_000);
  };
  await delivered('its settlement', (account) => account.verification_status !== 'pending');
  let answered = created.bytes;
  if (type === 'control' || type === 'control_ownership') {
    const control = await service.call('POST', `/verify/accounts/${id}/control`, {
      statement_code: SANDBOX_STATEMENT_CODE,
    });
    answered += control.bytes;
    await delivered('control valid', (account) => account.control_status === 'valid');
  }
  return answered + accountArrivals(service.receiver, id).reduce((sum, arrival) => sum + arrival.bytes, 0);
}

if (isMain(import.meta.url)) {
  const type = process.argv[2] as VerificationType | undefined;
  if (type && !VERIFICATION_TYPES.includes(type)) {
    throw new Error(`usage: cost.ts [${VERIFICATION_TYPES.join('|')}] (none: the whole cost part)`);
  }
  await runStandalone(`cost${type ? `-${type}` : ''}`, async (context) =>
    type ? costFigures(await measureVerificationCost(context, { type })) : measureCost(context),
  );
}
