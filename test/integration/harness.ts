import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { LocalIssuer } from '#lib/local/gateway/jwt-issuer';
import { configureHandlerEnvironment } from '#lib/local/handler-environment';
import { LambdaInvoker } from '#lib/local/lambda-invoker';
import { consoleLog } from '#lib/local/log';
import { LOCAL_OPERATORS } from '#lib/local/operators';
import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '#lib/local/runtime';
import { ensureTable } from '#lib/local/table';
import type { RouteDefinition } from '#lib/service/index';
import { cipher } from '#shared/cipher/index';
import { notifier } from '#shared/notify/index';
import { messageQueue } from '#shared/queue/index';
import { isOperatorScope, SERVICE_SCOPES } from '#shared/scopes';
import { checkAnswer } from '#test/support/contract';
import { observePorts } from '#test/support/port-access-recorder';
import { runAsRow } from '#test/support/table-access-recorder';

export { functionUnderTest } from '#test/support/table-access-recorder';

import { FAST_TIMINGS } from './fixtures/pipeline-consumers';

/**
 * Integration-test entry points. Everything runs against the run's one DynamoDB Local
 * (global-setup.ts), each caller on a fresh, uniquely named table, so test files never
 * see each other's data. Handlers read one process-wide environment: one runtime (or
 * test table) per test file at a time.
 */

export const SERVICE_VERSION = 'v2022-09-21';

const uniqueTableName = (): string => `test-${randomUUID()}`;

// One throw-away key pair per test file: RSA generation is the slow part of minting.
let issuer: Promise<LocalIssuer> | undefined;
const testIssuer = (): Promise<LocalIssuer> => (issuer ??= LocalIssuer.generate());

/**
 * The local runtime on a random port and a fresh table, with the whole pipeline (stream,
 * queues, schedules) on fast timings and emails in a throw-away outbox. Pass `routes` or
 * `consumers` to mount fixtures (`consumers: []` for no pipeline). Handler failures are
 * logged (warn and above) so a failing test shows why. Every function runs as its row of
 * lib/service, so each DynamoDB command it sends, and each queue, cipher purpose and email
 * it uses, is checked against that row (test/integration/grant-check.ts).
 */
export async function startTestRuntime(options: Partial<LocalRuntimeOptions> = {}): Promise<LocalRuntime> {
  // Tests send hundreds of requests a second from one tenant (fuzzing, concurrency): the
  // deployment default would refuse most of them. The rate limit's own test gives its
  // tenants their own settings.
  process.env.TENANT_RATE_PER_SECOND ??= '100000';
  process.env.TENANT_BURST ??= '100000';
  const runtime = await startLocalRuntime({
    port: 0,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: uniqueTableName(),
    issuer: await testIssuer(),
    log: consoleLog('warn'),
    pipelineTimings: FAST_TIMINGS,
    outboxDir: mkdtempSync(join(tmpdir(), 'verify-outbox-')),
    ...options,
    invoker: invokingAsRows(options.invoker ?? new LambdaInvoker(options.functionTimeoutMs)),
  });
  observePorts({ queue: messageQueue(), cipher: cipher(), notifier: notifier() });
  if (!options.routes) SERVICE_RUNTIMES.add(runtime);
  return runtime;
}

/** The invoker, running each function as its row (a fixture as none), so its commands are checked against it. */
function invokingAsRows(invoker: LambdaInvoker): LambdaInvoker {
  const invoke = invoker.invoke.bind(invoker);
  invoker.invoke = (fn, event) => runAsRow(fn.name, () => invoke(fn, event));
  return invoker;
}

/**
 * Runtimes serving the service's own routes (not fixtures): `api()` holds every answer they
 * give to the OpenAPI document.
 */
const SERVICE_RUNTIMES = new WeakSet<Pick<LocalRuntime, 'url'>>();

/** The local runtime's operator (lib/local/operators.ts): the only kind of client an operator route serves. */
export const OPERATOR: string = LOCAL_OPERATORS[0];

/**
 * The client id a caller of `route` uses: the local operator on an operator route (one
 * naming an operator scope, which refuses every other client), else `tenant`.
 */
export const clientFor = (route: Pick<RouteDefinition, 'scopes'>, tenant: string): string =>
  route.scopes.some(isOperatorScope) ? OPERATOR : tenant;

/**
 * A caller of every route, its token holding `scopes` (every scope, the operators' too, by
 * default): the local operator's on an operator route, `tenant`'s on any other.
 */
export async function routeCallers(
  runtime: LocalRuntime,
  tenant: string,
  scopes: readonly string[] = SERVICE_SCOPES,
): Promise<(route: Pick<RouteDefinition, 'scopes'>) => ReturnType<typeof api>> {
  const tenantCall = api(runtime, await runtime.mintToken(tenant, scopes));
  const operatorCall = api(runtime, await runtime.mintToken(OPERATOR, scopes));
  return (route) => (clientFor(route, tenant) === OPERATOR ? operatorCall : tenantCall);
}

/** A fresh table with the handler environment pointed at it, for repository tests without HTTP. */
export async function createTestTable(): Promise<{ tableName: string; dynamoEndpoint: string }> {
  const dynamoEndpoint = inject('dynamoEndpoint');
  const tableName = uniqueTableName();
  configureHandlerEnvironment({ dynamoEndpoint, tableName });
  const client = new DynamoDBClient({ endpoint: dynamoEndpoint });
  try {
    await ensureTable(client, tableName);
  } finally {
    client.destroy();
  }
  return { tableName, dynamoEndpoint };
}

export interface ApiResponse<B = any> {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  /** Parsed JSON; the raw text for other content; undefined when empty. */
  readonly body: B;
}

export interface RequestOptions {
  /** Sent as JSON unless it is a string or bytes (sent verbatim, e.g. to try malformed JSON). */
  readonly body?: unknown;
  /** Added to the defaults; `undefined` removes a default (e.g. `'service-version'`). */
  readonly headers?: Record<string, string | undefined>;
  /**
   * `false` skips holding the answer to the OpenAPI document: only for a request that
   * deliberately gets an answer the document cannot describe.
   */
  readonly contract?: false;
}

/**
 * fetch with the contract's default headers (`Authorization` when a token is given,
 * `Service-Version`, `Content-Type: application/json`).
 * `const call = api(runtime, token); const { status, body } = await call.post('/verify/accounts', {...})`
 * On a runtime of the service's routes, every answer is held to the OpenAPI document
 * (test/support/contract.ts): an undocumented status, a body its schema refuses or a
 * missing header fails the request, and so the test.
 */
export function api(runtime: Pick<LocalRuntime, 'url'>, token?: string) {
  const request = async <B = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<B>> => {
    const headers: Record<string, string | undefined> = {
      'service-version': SERVICE_VERSION,
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    };
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    const sent = Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const verbatim =
      options.body === undefined || typeof options.body === 'string' || options.body instanceof Uint8Array;
    const body = verbatim ? (options.body as string | Uint8Array | undefined) : JSON.stringify(options.body);

    const url = new URL(`${runtime.url}${path}`);
    const response = await fetch(url, { method, headers: sent, body });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json') ?? false;
    const answer = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: (text === '' ? undefined : isJson ? JSON.parse(text) : text) as B,
    };
    if (options.contract !== false && SERVICE_RUNTIMES.has(runtime)) await checkAnswer(method, url, answer);
    return answer;
  };
  return {
    request,
    get: <B = any>(path: string, options?: RequestOptions) => request<B>('GET', path, options),
    post: <B = any>(path: string, body?: unknown, options?: RequestOptions) =>
      request<B>('POST', path, { ...options, body }),
    put: <B = any>(path: string, body?: unknown, options?: RequestOptions) =>
      request<B>('PUT', path, { ...options, body }),
    patch: <B = any>(path: string, body?: unknown, options?: RequestOptions) =>
      request<B>('PATCH', path, { ...options, body }),
    delete: <B = any>(path: string, options?: RequestOptions) => request<B>('DELETE', path, options),
  };
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * One request over node:http, for what fetch will not send: a body on GET, repeated
 * headers, header sections of any size. Headers are sent exactly as given.
 */
export function rawRequest(
  runtime: Pick<LocalRuntime, 'url'>,
  request: { method: string; path: string; headers?: Record<string, string | string[]>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${runtime.url}${request.path}`,
      {
        method: request.method,
        // Node sends a GET or DELETE body unframed unless it is told its length.
        headers: {
          ...(request.body !== undefined && { 'content-length': String(Buffer.byteLength(request.body)) }),
          ...request.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}
