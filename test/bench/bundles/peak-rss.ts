import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';
import { refreshLists } from '#functions/screening/refresh-lists';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';
import { configureHandlerEnvironment } from '#lib/local/handler-environment';
import { registerLocalOperators } from '#lib/local/operators';
import { ensureTable } from '#lib/local/table';
import { REPO_ROOT } from '#lib/repo-root';
import { API_FUNCTION_TIMEOUT_SECONDS, CONSUMERS } from '#lib/service/index';
import { resetDependencies } from '#shared/dependencies';
import { type LocalAws, lambdaEnvironment, lambdaNodeFlags } from './environment';
import { type ServeReport, serveInvocations } from './serve';
import { FLOOR_ITEMS, STEPS } from './steps';
import type { SynthesizedFunction } from './synth';
import { type Step, times, type World } from './workload';

export interface PeakRssOptions {
  readonly local: LocalAws;
  readonly world: World;
  readonly workDir: string;
  /** Functions served at once: each is one process; DynamoDB Local is shared. */
  readonly concurrency: number;
  /** The steps to serve: STEPS, or those of the functions picked (`--only`, stepsFor). */
  readonly steps?: readonly Step[];
  log(message: string): void;
}

/**
 * Peak RSS of every function serving 1,000 invocations (workload*.ts), in the order their
 * inputs allow, a few at a time. Throws when an invocation ends in an outcome its step does
 * not expect: a function answering errors would make a meaningless figure.
 */
export async function measurePeakRss(
  functions: readonly SynthesizedFunction[],
  options: PeakRssOptions,
): Promise<Map<string, ServeReport>> {
  const byName = new Map(functions.map((fn) => [fn.name, fn]));
  const steps = options.steps ?? STEPS;
  const unplanned = functions.filter((fn) => !steps.some((step) => step.name === fn.name));
  const unknown = steps.filter((step) => !byName.has(step.name));
  if (unplanned.length || unknown.length) {
    throw new Error(
      `workload and stack differ: no step for ${unplanned.map((fn) => fn.name).join(', ') || '-'}; ` +
        `no function for ${unknown.map((step) => step.name).join(', ') || '-'}`,
    );
  }

  const reports = new Map<string, ServeReport>();
  const pending = [...steps];
  const running = new Map<string, Promise<void>>();
  const failures: Error[] = [];

  const serve = async (step: Step) => {
    const fn = byName.get(step.name) as SynthesizedFunction;
    const events = await step.events(options.world);
    const report = await serveAsLambda(fn, options.local, events, options.workDir);
    const unexpected = Object.keys(report.outcomes).filter((outcome) => !step.expect.includes(outcome));
    const summary = Object.entries(report.outcomes)
      .map(([outcome, n]) => `${outcome}×${n}`)
      .join(' ');
    options.log(
      `rss ${fn.name}: ${(report.maxRssKb / 1024).toFixed(1)} MB, ${report.invocations} invocations in ${(report.ms / 1000).toFixed(1)} s, ${(report.cpuMs / 1000).toFixed(1)} s CPU (${summary})`,
    );
    if (report.invocations !== events.length || unexpected.length > 0) {
      throw new Error(`${fn.name}: ${summary}, expected only ${step.expect.join('/')}\n${report.errors.join('\n')}`);
    }
    reports.set(fn.name, report);
  };

  while (pending.length > 0 || running.size > 0) {
    const ready = pending.filter((step) => step.after.every((name) => reports.has(name)));
    for (const step of ready.slice(0, Math.max(0, options.concurrency - running.size))) {
      pending.splice(pending.indexOf(step), 1);
      const job = serve(step)
        .catch((error: Error) => {
          failures.push(error);
        })
        .finally(() => running.delete(step.name));
      running.set(step.name, job);
    }
    if (running.size === 0) {
      if (failures.length > 0) break;
      throw new Error(
        `no step can run: ${pending.map((step) => `${step.name} (after ${step.after.join(', ')})`).join('; ')}`,
      );
    }
    await Promise.race(running.values());
    if (failures.length > 0) {
      await Promise.allSettled(running.values());
      break;
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, failures.map((error) => error.message).join('\n'));
  return reports;
}

/** Serves `events` with the function's bundle in a fresh process, as Lambda runs it: its environment, flags and timeout. */
export const serveAsLambda = (
  fn: SynthesizedFunction,
  local: LocalAws,
  events: readonly unknown[],
  workDir: string,
): Promise<ServeReport> =>
  serveInvocations({
    name: fn.name,
    bundle: fn.bundle,
    cwd: fn.dir,
    env: lambdaEnvironment(fn, local),
    nodeFlags: lambdaNodeFlags(fn, local.semiSpaceMb),
    events,
    timeoutMs: timeoutOf(fn.name),
    workDir,
  });

/** A function's timeout, as the stack sets it (ms). */
export const timeoutOf = (name: string): number =>
  (CONSUMERS.find((consumer) => consumer.id === name)?.timeoutSeconds ?? API_FUNCTION_TIMEOUT_SECONDS) * 1000;

/**
 * The table the functions work on, with what no function of the stack writes: the sandbox
 * screening lists (loaded as `npm start` loads them, with the service's own code), the
 * local operators' alias records and the floor's items.
 */
export async function prepareTable(local: LocalAws): Promise<{ streamArn: string; db: DynamoDBDocumentClient }> {
  const client = new DynamoDBClient({
    endpoint: local.dynamoEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const table = await ensureTable(client, local.tableName);
  if (!table.LatestStreamArn) throw new Error(`table ${local.tableName} has no stream`);
  const db = DynamoDBDocumentClient.from(client);
  // The operators' alias records, which the stack writes (the review routes serve no other client).
  await registerLocalOperators(db, local.tableName);
  await withHandlerEnvironment(local, async () => {
    await refreshLists({ dir: join(REPO_ROOT, SANDBOX_LISTS_DIR) });
  });
  const items = times(FLOOR_ITEMS, (n) => ({
    pk: `floor#${n}`,
    sk: `floor#${n}`,
    entity: 'bench-floor',
    n,
    note: 'x'.repeat(400),
  }));
  for (let i = 0; i < items.length; i += 25) {
    await db.send(
      new BatchWriteCommand({
        RequestItems: { [local.tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
  return { streamArn: table.LatestStreamArn, db };
}

export async function dropTable(local: LocalAws, db: DynamoDBDocumentClient): Promise<void> {
  await db.send(new DeleteTableCommand({ TableName: local.tableName }));
  db.destroy();
}

/**
 * Runs service code in this process against the bench's table, then puts the process's
 * environment back: configureHandlerEnvironment writes process.env, which the bench's
 * other parts share.
 */
async function withHandlerEnvironment(local: LocalAws, work: () => Promise<void>): Promise<void> {
  const saved = { ...process.env };
  try {
    configureHandlerEnvironment({
      dynamoEndpoint: local.dynamoEndpoint,
      tableName: local.tableName,
      cipherKey: local.cipherKey,
      digestKey: local.digestKey,
      fieldKey: local.fieldKey,
    });
    await work();
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    resetDependencies();
  }
}
