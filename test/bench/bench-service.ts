import { pathToFileURL } from 'node:url';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';
import { configureHandlerEnvironment, localCipherKey } from '#lib/local/handler-environment';
import { tableDefinition } from '#lib/local/table';
import { REPO_ROOT } from '#lib/repo-root';
import type { RouteDefinition } from '#lib/service/index';
import { LocalCipher } from '#shared/cipher/local-cipher';
import { DATA_KEYS, dataKeySource } from '#shared/data-key/index';
import { decryptDataKey } from '#shared/data-key/kms-data-key';
import { IdempotencyRepository } from '#shared/db/idempotency/index';
import { RateLimitRepository } from '#shared/db/rate-limits/index';
import { TenantRepository } from '#shared/db/tenants/index';
import { resetDependencies, setDependencies } from '#shared/dependencies';
import { FieldCipher } from '#shared/field-cipher/index';
import { setLogSink } from '#shared/logger';
import { setMetricsSink } from '#shared/metrics';
import { DnsWebhookUrlPolicy } from '#shared/webhook-url/webhook-url-policy';
import { type ApiRequest, apiEvent, lambdaContext } from './api-event';
import { CallRecorder } from './call-recorder';

export type Handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => Promise<HttpAnswer>;

export interface HttpAnswer {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * The service's HTTP handlers in this process, as a deployed function runs them, against
 * one table of DynamoDB Local: the handler environment the local runtime sets, the local
 * cipher, a queue that keeps nothing (SQS is not emulated here), webhook hosts that
 * resolve to a public address without DNS. Log and EMF lines are serialized as in Lambda
 * and then dropped, so the terminal is not part of any timing. Every outgoing call is
 * recorded by `recorder` (the middleware stack's table calls apart from the handler's).
 */
export interface BenchService {
  readonly tableName: string;
  readonly cipherKey: string;
  readonly recorder: CallRecorder;
  /** A plain client for the bench's own setup (tables, bulk loads). */
  readonly admin: DynamoDBClient;
  /** The route's handler module's `handler`, imported once. */
  handler(route: RouteDefinition): Promise<Handler>;
  /** Calls the route's handler with a realistic API Gateway event of `clientId`'s token. */
  invoke(route: RouteDefinition, request: ApiRequest, clientId: string): Promise<HttpAnswer>;
  /** The last few error lines the service logged (a 500's cause), for the bench's own error messages. */
  loggedErrors(): string[];
  /** Creates another table of the same shape (a twin for bare calls); deleted with the service's own on close. */
  createTable(name: string): Promise<void>;
  close(): Promise<void>;
}

/** A webhook host's address: public, so the URL policy's checks all run and pass. */
const PUBLIC_ADDRESS = '93.184.215.14';

/** Requests per second and burst of every bench tenant: the bucket never runs dry, so each request takes exactly one token. */
const UNLIMITED = '1000000';

export async function startBenchService(settings: {
  dynamoEndpoint: string;
  tableName: string;
}): Promise<BenchService> {
  const cipherKey = await localCipherKey(undefined);
  // Other parts of `npm run bench` may run in this process after this one.
  const environment = { ...process.env };
  configureHandlerEnvironment({ ...settings, cipherKey });
  process.env.TENANT_RATE_PER_SECOND = UNLIMITED;
  process.env.TENANT_BURST = UNLIMITED;
  const admin = new DynamoDBClient({
    endpoint: settings.dynamoEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const tables = [settings.tableName];
  await createBenchTable(admin, settings.tableName);

  const recorder = new CallRecorder();
  const stack = recorder.documentClient('stack');
  setDependencies({
    documentClient: recorder.documentClient('handler'),
    tenants: new TenantRepository(stack, settings.tableName),
    rateLimits: new RateLimitRepository(stack, settings.tableName),
    idempotency: new IdempotencyRepository(stack, settings.tableName),
    cipher: recorder.cipher(new LocalCipher(cipherKey)),
    fieldCipher: recorder.fieldCipher(newFieldCipher()),
    queue: recorder.queue(discardingQueue),
    webhookUrlPolicy: recorder.urlPolicy(publicUrlPolicy()),
  });
  const errors: string[] = [];
  setLogSink((line) => {
    if (!line.includes('"level":"ERROR"')) return;
    errors.push(line);
    if (errors.length > 3) errors.shift();
  });
  setMetricsSink(() => undefined);

  const handlers = new Map<string, Handler>();
  const handlerOf = async (route: RouteDefinition): Promise<Handler> => {
    let handler = handlers.get(route.id);
    if (!handler) {
      const module = (await import(pathToFileURL(`${REPO_ROOT}/${route.handler}`).href)) as { handler: Handler };
      // Each function keeps the rate-limit tokens it leased to itself, as each Lambda
      // function's containers do: a seed's requests through another route (a person
      // created for each close) take none of the measured route's, which would otherwise
      // renew its lease at twice the rate it does alone. The bench invokes one at a time.
      const leases = new RateLimitRepository(stack, settings.tableName);
      const own = module.handler;
      handler = (event, context) => {
        setDependencies({ rateLimits: leases });
        return own(event, context);
      };
      handlers.set(route.id, handler);
    }
    return handler;
  };

  return {
    tableName: settings.tableName,
    cipherKey,
    recorder,
    admin,
    handler: handlerOf,
    loggedErrors: () => [...errors],
    invoke: async (route, request, clientId) =>
      (await handlerOf(route))(apiEvent(route, request, clientId), lambdaContext(route)),
    createTable: async (name) => {
      tables.push(name);
      await createBenchTable(admin, name);
    },
    close: async () => {
      setLogSink(undefined);
      setMetricsSink(undefined);
      resetDependencies();
      recorder.destroy();
      // The run's one DynamoDB Local holds every table in memory, for the parts after this one too.
      // Best effort: a failed part's own error matters more than its cleanup's.
      for (const name of tables) await admin.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
      admin.destroy();
      for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
      Object.assign(process.env, environment);
    },
  };
}

/**
 * The service's table (lib/local/table.ts) without its stream: nothing consumes it here,
 * and DynamoDB Local records stream entries synchronously on every write, ever slower as
 * they pile up (measured: 2,400 puts/s without a stream, 500/s with one, 64/s once it
 * holds 40k entries). In DynamoDB the stream costs a write no latency.
 */
async function createBenchTable(admin: DynamoDBClient, name: string): Promise<void> {
  const { StreamSpecification: _, ...definition } = tableDefinition(name);
  await admin.send(new CreateTableCommand(definition));
}

export const discardingQueue = { send: async () => undefined };

export const publicUrlPolicy = () =>
  new DnsWebhookUrlPolicy({ allowLoopbackHttp: false, resolve: async () => [PUBLIC_ADDRESS] });

/** A field cipher as the service makes its own (#shared/field-cipher), with the key the environment names. */
export const newFieldCipher = (): FieldCipher => new FieldCipher(dataKeySource(DATA_KEYS['field-key'], decryptDataKey));
