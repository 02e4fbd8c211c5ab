import { setTimeout as sleep } from 'node:timers/promises';
import { capacityModel, describeCapacity } from './capacity-model';
import type { BenchContext } from './context';
import { type CostReport, costReport, describeReport } from './cost-report';
import { LIST_SHARDS, useBenchListShards } from './list-shards';
import { type ApiCall, type BenchService, createBody } from './local-service';
import { accountArrivals, startMeteredService, stopMeteredService } from './metered-service';
import { partitionWrites, StreamTap } from './partition-writes';
import type { CapacityFigures } from './results';
import { round } from './stats';

/**
 * `status` verifications under a sustained load: `count` creates offered at a steady rate
 * by one tenant (each a bank account of its own, so the 5-per-24-hours limit never
 * refuses one), through the same metered local runtime as one at a time. Its stream
 * poller and queue consumers take what has accumulated, up to each consumer's batch size
 * (lib/service), as Lambda's pollers do, so one invocation and one SQS receive serve
 * several verifications.
 *
 * Run twice: for a tenant with 8 list shards (`TENANT_LIST_SHARDS`) and for one with 1.
 * Every change the table's stream shows during each run is attributed to the partitions
 * it writes (test/bench/partition-writes.ts), which gives the tenant's ceiling
 * (test/bench/capacity-model.ts).
 */
export interface SustainedOptions {
  /** Default 300. */
  readonly verifications?: number;
  /** Creates offered a second; default 50. */
  readonly perSecond?: number;
  /**
   * Lambda compute per verification, from a run one at a time. Here dozens of invocations
   * share one process on two shared cores, so their local durations measure the wait for
   * the event loop (seconds), not the work Lambda would bill; default: those durations.
   */
  readonly gbSecondsPerVerification?: number;
}

export interface SustainedCost {
  /** The bill of the 8-shard tenant's run. */
  readonly report: CostReport;
  /** By the tenant's list shards: `"8"`, `"1"`. */
  readonly capacity: Record<string, CapacityFigures>;
}

const { costTenant: SHARDED_TENANT, shards: SHARDS } = LIST_SHARDS;

export async function measureSustainedCost(
  context: BenchContext,
  options: SustainedOptions = {},
): Promise<SustainedCost> {
  const count = options.verifications ?? 300;
  const perSecond = options.perSecond ?? 50;
  const load = `${count} offered at ${perSecond}/s by one tenant`;
  useBenchListShards();
  const { service, meter } = await startMeteredService(context, { part: 'cost-sustained' });
  try {
    const tap = await StreamTap.open(service.runtime.dynamoEndpoint, service.runtime.tableName);
    const tenants: [number, string, ApiCall][] = [
      [SHARDS, SHARDED_TENANT, await service.addTenant(SHARDED_TENANT)],
      [1, service.tenant, service.call],
    ];
    const capacity: Record<string, CapacityFigures> = {};
    let report: CostReport | undefined;
    for (const [shards, tenant, call] of tenants) {
      // Warm: handler imports, tenant caches, the first stream shard.
      await offer(service, call, 2, 2);
      await tap.drain();
      meter.reset();
      meter.recording = true;
      const started = performance.now();
      const bytesOut = await offer(service, call, count, perSecond);
      meter.recording = false;
      const seconds = (performance.now() - started) / 1000;
      const records = await tap.drain();
      const calls = meter.invocations.flatMap((invocation) => invocation.dynamo);
      const run = costReport('status', count, meter.invocations, bytesOut, {
        load: `${load} (${shards} list shard${shards === 1 ? '' : 's'})`,
        steps: 'function',
        gbSecondsPerVerification: options.gbSecondsPerVerification,
      });
      context.log(
        `sustained, ${shards} shard(s): ${count} verifications settled and delivered in ${round(seconds)} s; ` +
          `${records.length} stream records; $${round(run.usdPerMillion, 2)} per million`,
      );
      if (!report) {
        report = run;
        for (const line of describeReport(run)) context.log(line);
      }
      capacity[String(shards)] = capacityModel(partitionWrites(records, calls), calls, {
        verifications: count,
        tenant,
        shards,
      });
      for (const line of describeCapacity(capacity[String(shards)] as CapacityFigures)) context.log(line);
    }
    tap.close();
    return { report: report as CostReport, capacity };
  } finally {
    await stopMeteredService(service);
  }
}

/**
 * Offers `count` creates at `perSecond`, without waiting for one before the next, then
 * waits until each one's settlement webhook arrived and the pipeline is at rest; resolves
 * with the bytes sent out (the API's answers and the webhooks).
 */
async function offer(service: BenchService, call: ApiCall, count: number, perSecond: number): Promise<number> {
  const started = performance.now();
  const creates: ReturnType<ApiCall>[] = [];
  for (let n = 0; n < count; n++) {
    const wait = started + (n * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
    creates.push(call('POST', '/verify/accounts', createBody('status')));
  }
  const created = await Promise.all(creates);
  const ids = new Set(created.map((answer) => String(answer.body.account.id)));
  const settled = new Set<string>();
  const allSettled = () => {
    for (const arrival of service.receiver.arrivals.values()) {
      const account = arrival.envelope.event_data.account;
      if (ids.has(account?.id) && account.verification_status !== 'pending') settled.add(account.id);
    }
    return settled.size === ids.size;
  };
  if (!(await service.receiver.until(allSettled, Date.now() + 300_000))) {
    throw new Error(`${ids.size - settled.size} of ${ids.size} verifications were not settled and delivered in 5 min`);
  }
  await service.runtime.settle(120_000);
  const webhookBytes = [...ids].flatMap((id) => accountArrivals(service.receiver, id).map((arrival) => arrival.bytes));
  return [...created.map((answer) => answer.bytes), ...webhookBytes].reduce((sum, bytes) => sum + bytes, 0);
}
