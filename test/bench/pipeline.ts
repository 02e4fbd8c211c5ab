import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { newVerifyAccount, type VerifyAccount } from '#domain/verify-account';
import { DEFAULT_PIPELINE_TIMINGS } from '#lib/local/pipeline/local-pipeline';
import { tableName } from '#shared/config';
import { documentClient } from '#shared/db/document-client';
import { verifyAccounts } from '#shared/db/verify-accounts/index';
import { accountItem } from '#shared/db/verify-accounts/item';
import type { BenchContext, BenchPart } from './context';
import { type BenchService, startBenchService } from './local-service';
import { type Invocation, Meter } from './metering';
import { measurePipelineFloor, type PipelineFloor, processCpuMs } from './pipeline-floor';
import { type HopFigures, HopTrace } from './pipeline-hops';
import { GOALS, type PipelineFigures } from './results';
import { isMain, runStandalone } from './standalone';
import { percentile, round } from './stats';
import { TableCallCounter } from './table-calls';
import { textTable } from './text-table';

/**
 * Event pipeline throughput and latency, part of `npm run bench` (issue 11): status
 * changes written to the table travel through the local stream poller, the stream router
 * (which stores each as an event, then publishes the stored event), the webhook-events
 * queue, the sender, the webhook-deliveries queue and the delivery worker, to a 204 at a
 * loopback receiver. Latency runs from the change's write (the event's `created_at`, which
 * is the account's `updated_at`) to the receiver's answer.
 *
 * The changes are written straight into the table, not caused through the API: the issue
 * measures the pipeline "from the table", and API requests would put the gateway and the
 * create handler on the same two cores, so the figure would be the API's throughput as
 * much as the pipeline's. Each change is the write a repeated debit check makes
 * (`recordDebitCheck`: debit_status and its reason, one versioned UpdateItem through the
 * repository), on accounts seeded settled beforehand, so no other work runs meanwhile.
 *
 * The runtime runs with `npm start`'s pipeline timings (DEFAULT_PIPELINE_TIMINGS: the
 * stream is polled every 150 ms when idle), which is what a developer sees locally.
 */

export interface PipelineOptions {
  /** Status changes written; default 2,000. */
  readonly events?: number;
  /**
   * Changes written per second. Default 10 % above the goal's rate (OFFERED_PER_S, 110):
   * events/s is counted from the first write to the last arrival, so a pipeline that keeps
   * up with exactly the goal's rate still measures a little under it (the last event's
   * latency is in the window); offered 110 a second, one that sustains 100 shows ≥ 100, and
   * the latency is the latency at a load above the goal's. A pipeline that cannot keep up
   * shows it twice, in events/s below the rate and in a p99 that grows with the backlog.
   * `Infinity` writes them as fast as the writers go (a burst: capacity, but latencies that
   * only measure the backlog).
   */
  readonly ratePerSecond?: number;
  /** Most writes in flight at once. Default 16. */
  readonly writers?: number;
  /** Give up waiting for deliveries this long after the last write. Default 120 s. */
  readonly drainTimeoutMs?: number;
}

/** What `measurePipeline` returns beyond the results file's figures, for reading. */
export interface PipelineMeasurement extends PipelineFigures {
  /** The status changes written; `events` is those delivered. */
  readonly written: number;
  /** Changes written per second; absent for a burst. */
  readonly offered_per_s?: number;
  readonly timings: 'npm start defaults';
  /**
   * CPU time of this process (handlers, local queues and stream poller, the writers, the
   * receiver) per delivered event; DynamoDB Local's JVM is not in it. Less sensitive to a
   * busy machine than events/s.
   */
  readonly node_cpu_ms_per_event: number;
  /** DynamoDB Local's JVM CPU time per delivered event (its /proc stat); absent where it cannot be read. */
  readonly jvm_cpu_ms_per_event?: number;
  /**
   * The share of the machine's cores the two processes used while the events ran: their
   * CPU time over cores × the wall time. Near 1, every event waits for a core: the
   * latency is queueing on the machine.
   */
  readonly machine_cpu_share?: number;
  /**
   * The machine's 1-minute load average as the writes began: on a shared machine, work
   * of other processes slows every figure here.
   */
  readonly load_average: number;
  /** Per function: invocations, records per invocation, time busy. */
  readonly functions: readonly FunctionLoad[];
  /** Where the latency goes, hop by hop (test/bench/pipeline-hops.ts). */
  readonly hops: readonly HopFigures[];
  /**
   * DynamoDB calls per delivered event, by operation (test/bench/table-calls.ts): the
   * writers' status change (one UpdateItem) and every handler's; not the stream's reads.
   */
  readonly table_calls_per_event: { total: number; by_operation: Record<string, number> };
  /** The same table calls alone, with a bare client, right after (./pipeline-floor.ts). */
  readonly floor?: PipelineFloor;
}

export interface FunctionLoad {
  readonly name: string;
  readonly invocations: number;
  readonly records_per_invocation: number;
  readonly mean_ms: number;
  /** Summed invocation time over the run's wall time: above ~0.9 it is the bottleneck. */
  readonly busy_fraction: number;
}

/** What the bench offers by default: 10 % above the goal's rate (see PipelineOptions.ratePerSecond). */
export const OFFERED_PER_S = Math.round(GOALS.pipelineEventsPerS * 1.1);

export const measurePipeline: BenchPart<PipelineMeasurement> = (context) => measurePipelineWith(context);

export async function measurePipelineWith(
  context: BenchContext,
  options: PipelineOptions = {},
): Promise<PipelineMeasurement> {
  const count = options.events ?? 2_000;
  const rate = options.ratePerSecond ?? OFFERED_PER_S;
  const meter = new Meter();
  const hops = new HopTrace();
  const tableCalls = new TableCallCounter();
  const service = await startBenchService(context, { part: 'pipeline', invoker: hops.wrap(meter.invoker()) });
  const detach = tableCalls.attach(documentClient());
  try {
    const seeded = performance.now();
    const accounts = await seedSettledAccounts(service.tenant, count);
    // The seeds' INSERTs are queued for verification, which finds them settled: let that pass first.
    await service.runtime.settle(120_000);
    context.log(`pipeline: ${count} settled accounts seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    meter.recording = true;
    tableCalls.recording = true;
    const started = Date.now();
    const cpuBefore = process.cpuUsage();
    const jvmBefore = processCpuMs(context.dynamoPid);
    const load = loadavg()[0] ?? 0;
    const pace = Number.isFinite(rate) ? `${rate} a second` : 'as fast as they go';
    context.log(`pipeline: writing ${count} status changes, ${pace}`);
    await writeStatusChanges(accounts, rate, options.writers ?? 16);
    const writesDone = Date.now();
    const drainTimeoutMs = options.drainTimeoutMs ?? 120_000;
    const complete = await service.receiver.until(
      () => service.receiver.arrivals.size >= count,
      writesDone + drainTimeoutMs,
    );
    meter.recording = false;
    tableCalls.recording = false;
    const cpu = process.cpuUsage(cpuBefore);
    const jvmAfter = processCpuMs(context.dynamoPid);
    const jvmCpuMs = jvmBefore !== undefined && jvmAfter !== undefined ? jvmAfter - jvmBefore : undefined;
    if (!complete) {
      context.log(
        `pipeline: only ${service.receiver.arrivals.size} of ${count} events arrived within ${drainTimeoutMs / 1000} s of the last write`,
      );
    }
    const summary = summarise(service, meter.invocations, hops, tableCalls, {
      written: count,
      started,
      rate,
      cpu,
      jvmCpuMs,
      load,
    });
    const floor = Number.isFinite(rate)
      ? await measurePipelineFloor({
          endpoint: context.dynamoEndpoint,
          tableName: tableName(),
          jvmPid: context.dynamoPid,
          callsPerEvent: summary.table_calls_per_event.by_operation,
          events: summary.events,
          offeredPerS: rate,
        })
      : undefined;
    const measurement: PipelineMeasurement = { ...summary, ...(floor && { floor }) };
    for (const line of describeMeasurement(measurement, (writesDone - started) / 1000)) context.log(line);
    return measurement;
  } finally {
    detach();
    await service.stop();
  }
}

/**
 * Accounts as the verification worker leaves them (valid, debits valid), written with
 * BatchWriteItem: a settled account's INSERT asks the worker for nothing more.
 */
async function seedSettledAccounts(tenant: string, count: number): Promise<VerifyAccount[]> {
  const now = new Date();
  const accounts = Array.from({ length: count }, (_, n) => {
    const account = newVerifyAccount(
      {
        id: randomUUID(),
        tenant,
        type: 'status',
        account_number: `${String(n).padStart(8, '0')}6789`,
        routing_number: '021000021',
        account_holder_name: 'Jane Doe',
      },
      now,
    );
    return { ...account, verification_status: 'valid', debit_status: 'valid' } satisfies VerifyAccount;
  });
  const batches: VerifyAccount[][] = [];
  for (let n = 0; n < accounts.length; n += 25) batches.push(accounts.slice(n, n + 25));
  await inParallel(batches, 4, async (batch) => {
    let requests = batch.map((account) => ({ PutRequest: { Item: accountItem(account) } }));
    while (requests.length > 0) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (out.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  });
  return accounts;
}

/** One status change per account: the bank now blocks debits, as a repeated debit check would record. */
async function writeStatusChanges(accounts: readonly VerifyAccount[], rate: number, writers: number): Promise<void> {
  const start = performance.now();
  const interval = 1000 / rate;
  await inParallel(accounts, writers, async (account, n) => {
    const due = start + n * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    await verifyAccounts().recordDebitCheck(
      account,
      { debit_status: 'blocked', debit_status_reason: 'debit_blocked' },
      new Date(),
    );
  });
}

/** Runs `work` over `items` with at most `limit` at once, in order of start. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function summarise(
  service: BenchService,
  invocations: readonly Invocation[],
  hops: HopTrace,
  tableCalls: TableCallCounter,
  run: {
    written: number;
    started: number;
    rate: number;
    cpu: NodeJS.CpuUsage;
    jvmCpuMs: number | undefined;
    load: number;
  },
): PipelineMeasurement {
  const arrivals = [...service.receiver.arrivals.values()];
  if (arrivals.length === 0) throw new Error('no event reached the receiver');
  const latencies = arrivals.map((arrival) => arrival.arrivedAt - arrival.createdAt);
  const firstWrite = Math.min(...arrivals.map((arrival) => arrival.createdAt));
  const lastArrival = Math.max(...arrivals.map((arrival) => arrival.arrivedAt));
  const wallMs = Math.max(1, lastArrival - run.started);
  const nodeCpuMs = (run.cpu.user + run.cpu.system) / 1000;
  return {
    events: arrivals.length,
    events_per_s: round(arrivals.length / ((lastArrival - firstWrite) / 1000)),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    written: run.written,
    ...(Number.isFinite(run.rate) && { offered_per_s: run.rate }),
    timings: 'npm start defaults',
    node_cpu_ms_per_event: round(nodeCpuMs / arrivals.length, 2),
    ...(run.jvmCpuMs !== undefined && {
      jvm_cpu_ms_per_event: round(run.jvmCpuMs / arrivals.length, 2),
      machine_cpu_share: round((nodeCpuMs + run.jvmCpuMs) / (availableParallelism() * wallMs), 2),
    }),
    load_average: round(run.load, 2),
    functions: functionLoads(invocations, wallMs),
    hops: hops.figures(arrivals),
    table_calls_per_event: tableCalls.perEvent(arrivals.length),
  };
}

function functionLoads(invocations: readonly Invocation[], wallMs: number): FunctionLoad[] {
  const byName = new Map<string, Invocation[]>();
  for (const invocation of invocations) byName.set(invocation.fn, [...(byName.get(invocation.fn) ?? []), invocation]);
  return [...byName].map(([name, group]) => {
    const busyMs = group.reduce((sum, invocation) => sum + invocation.durationMs, 0);
    return {
      name,
      invocations: group.length,
      records_per_invocation: round(group.reduce((sum, i) => sum + i.records, 0) / group.length),
      mean_ms: round(busyMs / group.length),
      busy_fraction: round(busyMs / wallMs, 2),
    };
  });
}

function describeMeasurement(measurement: PipelineMeasurement, writeSeconds: number): string[] {
  return [
    `pipeline: ${measurement.events} of ${measurement.written} events delivered (writes took ${writeSeconds.toFixed(1)} s); ` +
      `${measurement.events_per_s} events/s, p50 ${measurement.p50_ms} ms, p99 ${measurement.p99_ms} ms ` +
      `(npm start timings: stream polled every ${DEFAULT_PIPELINE_TIMINGS.streamPollMs} ms when idle); ` +
      `${measurement.node_cpu_ms_per_event} ms of this process's CPU per event` +
      (measurement.jvm_cpu_ms_per_event === undefined
        ? ''
        : ` and ${measurement.jvm_cpu_ms_per_event} ms of DynamoDB Local's, ${measurement.machine_cpu_share} of the machine's cores`) +
      `; load average ${measurement.load_average}`,
    ...textTable(
      ['function', 'invocations', 'records each', 'mean ms', 'busy'],
      measurement.functions.map((load) => [
        load.name,
        load.invocations,
        load.records_per_invocation,
        load.mean_ms,
        load.busy_fraction,
      ]),
    ),
    ...(measurement.floor
      ? [
          `pipeline floor: the same table calls alone, bare: ${measurement.floor.node_cpu_ms_per_event} ms of this process's CPU per event` +
            (measurement.floor.jvm_cpu_ms_per_event === undefined
              ? ''
              : ` and ${measurement.floor.jvm_cpu_ms_per_event} ms of DynamoDB Local's, ${measurement.floor.cores_share_at_offered} of the machine's cores at ${measurement.offered_per_s} events/s`),
        ]
      : []),
    `pipeline: ${measurement.table_calls_per_event.total} table calls per event (${Object.entries(
      measurement.table_calls_per_event.by_operation,
    )
      .map(([operation, n]) => `${operation} ${n}`)
      .join(', ')})`,
    ...textTable(
      ['hop', 'p50 ms', 'p99 ms', 'share of the p99 event'],
      measurement.hops.map((hop) => [hop.hop, hop.p50_ms, hop.p99_ms, hop.share_of_p99]),
    ),
  ];
}

if (isMain(import.meta.url)) {
  // npx tsx test/bench/pipeline.ts [events] [rate per second | burst]
  const [events, rate] = process.argv.slice(2);
  await runStandalone('pipeline', (context) =>
    measurePipelineWith(context, {
      events: events ? Number(events) : undefined,
      ratePerSecond: rate === 'burst' ? Infinity : rate ? Number(rate) : undefined,
    }),
  );
}
