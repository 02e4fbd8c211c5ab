import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import type { LambdaInvoker } from '#lib/local/lambda-invoker';
import { describeError, type RuntimeLog } from '#lib/local/log';
import type { PipelineTimings } from '#lib/local/pipeline/local-pipeline';
import { type LocalRuntime, startLocalRuntime } from '#lib/local/runtime';
import { setLogSink } from '#shared/logger';
import { setMetricsSink } from '#shared/metrics';
import type { BenchContext } from './context';
import { type Receiver, startReceiver } from './receiver';

/**
 * The whole service on the local runtime, as `npm start` runs it (every route and
 * consumer, the default pipeline timings unless told otherwise), on a fresh table of the
 * run's DynamoDB Local, with one tenant that has a signing secret and a `subscribe_all`
 * webhook configuration pointing at a loopback receiver.
 */
export interface BenchService {
  readonly runtime: LocalRuntime;
  readonly receiver: Receiver;
  readonly tenant: string;
  /** A JSON request to the API as the tenant; rejects on an answer other than 2xx. */
  readonly call: ApiCall;
  /** Another tenant set up like the first (signing secret, webhook configuration); its calls. */
  addTenant(tenant: string): Promise<ApiCall>;
  stop(): Promise<void>;
}

export type ApiCall = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: any; bytes: number }>;

export interface BenchServiceOptions {
  /** Names the table (`bench-<part>-…`) and the work directory's outbox. */
  readonly part: string;
  readonly invoker?: LambdaInvoker;
  readonly pipelineTimings?: Partial<PipelineTimings>;
  /** Every handler log line (and EMF metrics line) goes here instead of stdout. */
  readonly logLine?: (line: string) => void;
}

export const SERVICE_VERSION = 'v2022-09-21';
const TENANT = 'bench-tenant';

/**
 * One tenant sends thousands of requests a second here; the deployment's rate limit
 * (50 a second) would refuse most of them. Every request still takes a token from the
 * bucket (one UpdateItem), as in AWS; only refills, which are rare at real rates, are not seen.
 */
const ENVIRONMENT = { TENANT_RATE_PER_SECOND: '1000000', TENANT_BURST: '1000000', LOG_LEVEL: 'info' } as const;

export async function startBenchService(context: BenchContext, options: BenchServiceOptions): Promise<BenchService> {
  const previous = Object.fromEntries(Object.keys(ENVIRONMENT).map((name) => [name, process.env[name]]));
  Object.assign(process.env, ENVIRONMENT);
  // Handler lines would flood the terminal; they are counted (cost) or dropped (pipeline).
  const logLine = options.logLine ?? (() => {});
  setLogSink(logLine);
  setMetricsSink(logLine);
  const receiver = await startReceiver();
  let runtime: LocalRuntime | undefined;
  const stop = async () => {
    await runtime?.stop();
    await receiver.close();
    setLogSink(undefined);
    setMetricsSink(undefined);
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  try {
    runtime = await startLocalRuntime({
      port: 0,
      dynamoEndpoint: context.dynamoEndpoint,
      tableName: `bench-${options.part}-${randomUUID().slice(0, 8)}`,
      issuer: await LocalIssuer.generate(),
      outboxDir: join(context.workDir, 'outbox'),
      screeningLists: false,
      pipelineTimings: options.pipelineTimings,
      invoker: options.invoker,
      // Durations are what the cost part prices and the pipeline part times: no local IAM hop in them.
      enforceTenantRoles: false,
      log: runtimeLog(context),
    });
    const url = runtime.url;
    const started = runtime;
    const addTenant = async (tenant: string): Promise<ApiCall> => {
      const call = apiCall(url, await started.mintToken(tenant));
      await call('POST', '/webhooks/secret', {});
      await call('POST', '/webhooks/configurations', {
        url: receiver.url,
        event_types: ['subscribe_all'],
        enabled: true,
      });
      return call;
    };
    return { runtime, receiver, tenant: TENANT, call: await addTenant(TENANT), addTenant, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function apiCall(url: string, token: string): ApiCall {
  return async (method, path, body, headers) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'service-version': SERVICE_VERSION,
        'content-type': 'application/json',
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return { status: response.status, body: text ? JSON.parse(text) : undefined, bytes: Buffer.byteLength(text) };
  };
}

/** The runtime's own warnings and errors (a failed batch, a dead-lettered message) reach the bench's log. */
function runtimeLog(context: BenchContext): RuntimeLog {
  return (level, message, details) => {
    if (level === 'warn' || level === 'error') {
      const fields = Object.entries(details ?? {}).map(
        ([name, value]) => `${name}=${value instanceof Error ? describeError(value) : JSON.stringify(value)}`,
      );
      context.log(`runtime ${level}: ${[message, ...fields].join(' ')}`);
    }
  };
}

/** A create body of the sandbox that settles `valid`, for a verification `type`; fresh account numbers. */
let accountCounter = 0;
export function createBody(type: string): Record<string, unknown> {
  // Distinct bank accounts: each may be verified at most 5 times in 24 h. Ending in 6789: valid.
  const accountNumber = `${Date.now() % 100_000_000}${String(++accountCounter).padStart(4, '0')}6789`.slice(-15);
  const ownership = type === 'status_ownership' || type === 'control_ownership';
  const control = type === 'control' || type === 'control_ownership';
  return {
    account_number: accountNumber,
    routing_number: '021000021',
    account_holder_name: 'Jane Doe',
    type,
    // The holder is told by email that the statement credit is on its way.
    ...(control && { email: 'jane@example.com' }),
    ...(ownership && { person: { first_name: 'Jane', last_name: 'Doe', ssn: '123456789' } }),
  };
}
