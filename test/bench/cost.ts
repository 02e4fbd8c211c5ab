import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { VERIFICATION_TYPES, type VerificationType } from '#domain/verify-account';
import { cipher } from '#shared/cipher/index';
import { documentClient, setDependencies } from '#shared/dependencies';
import type { BenchContext, BenchPart } from './context';
import { type CostReport, costFigures, costReport, describeReport } from './cost-report';
import { type BenchService, createBody, startBenchService } from './local-service';
import { Meter } from './metering';
import type { CostFigures } from './results';
import { isMain, runStandalone } from './standalone';

/**
 * Cost model, part of `npm run bench` (issue 11): full verifications through the local
 * runtime — API create → the worker settles it → the router stores the event → the sender
 * fans it out → the delivery worker POSTs it to a receiver — with every DynamoDB call's
 * consumed capacity, every Lambda invocation, SQS request, KMS call and log byte counted
 * (test/bench/metering.ts), priced at on-demand rates (test/bench/cost-model.ts).
 *
 * One verification at a time, so nothing is batched with another verification's records:
 * the bill of a verification at low traffic, the most it costs. Busier queues and streams
 * put several verifications in one invocation and cost less per verification.
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
  /** Default `status`. The `control` types stop before the holder submits the statement code. */
  readonly type?: VerificationType;
  /** Verifications measured (after one warm-up); the figures are their average. Default 5. */
  readonly verifications?: number;
  /** Send an `Idempotency-Key` with the create, as a careful partner does. Default false. */
  readonly idempotencyKey?: boolean;
}

/** The cost part of `npm run bench`: a `status` verification. */
export const measureCost: BenchPart<CostFigures> = async (context) =>
  costFigures(await measureVerificationCost(context));

export async function measureVerificationCost(context: BenchContext, options: CostOptions = {}): Promise<CostReport> {
  const type = options.type ?? 'status';
  const count = options.verifications ?? 5;
  const meter = new Meter();
  const service = await startBenchService(context, {
    part: `cost-${type.replaceAll('_', '-')}`,
    invoker: meter.invoker(),
    logLine: meter.logLine,
  });
  try {
    meter.instrumentDynamo(documentClient());
    setDependencies({ queue: meter.queue(service.runtime.queues), cipher: meter.cipher(cipher()) });
    context.log(
      `cost: one warm-up ${type} verification, then ${count} measured, one at a time ` +
        `(load average ${loadavg()[0]?.toFixed(2)}: it slows the local durations Lambda compute is priced from)`,
    );
    await verify(service, type, options);
    meter.recording = true;
    let bytesOut = 0;
    for (let n = 0; n < count; n++) bytesOut += await verify(service, type, options);
    meter.recording = false;
    const report = costReport(type, count, meter.invocations, bytesOut);
    for (const line of describeReport(report)) context.log(line);
    return report;
  } finally {
    setDependencies({ cipher: undefined });
    await service.stop();
  }
}

/**
 * One verification from the create to its webhook's 204; resolves with the bytes sent
 * out to the internet (the API's answer and the webhook request).
 */
async function verify(service: BenchService, type: VerificationType, options: CostOptions): Promise<number> {
  const headers = options.idempotencyKey ? { 'idempotency-key': randomUUID() } : undefined;
  const created = await service.call('POST', '/verify/accounts', createBody(type), headers);
  const id = String(created.body.account.id);
  const settledEvent = () =>
    [...service.receiver.arrivals.values()].find(
      (arrival) =>
        arrival.envelope.event_data.account?.id === id &&
        arrival.envelope.event_data.account?.verification_status !== 'pending',
    );
  if (!(await service.receiver.until(() => settledEvent() !== undefined, Date.now() + 30_000))) {
    throw new Error(`verify account ${id} was not settled and delivered within 30 s`);
  }
  // The delivery attempt is recorded after the 204: wait for the whole pipeline to rest.
  await service.runtime.settle(30_000);
  return created.bytes + (settledEvent()?.bytes ?? 0);
}

if (isMain(import.meta.url)) {
  const type = (process.argv[2] ?? 'status') as VerificationType;
  if (!VERIFICATION_TYPES.includes(type)) throw new Error(`usage: cost.ts [${VERIFICATION_TYPES.join('|')}]`);
  await runStandalone(`cost-${type}`, async (context) => costFigures(await measureVerificationCost(context, { type })));
}
