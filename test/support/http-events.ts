import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { asRoute } from './table-access-recorder';

// API Gateway HTTP API (v2) events as the JWT authorizer delivers them, a minimal Lambda
// context, and a way to call a handler and read its JSON answer.

export const SERVICE_VERSION = 'v2022-09-21';
export const DEFAULT_CLIENT_ID = 'partner-a';

export interface Claims {
  client_id?: string;
  sub?: string;
  scope?: string;
}

export interface EventOptions {
  method?: string;
  /** Path as sent, e.g. `/verify/accounts/<id>`. */
  path?: string;
  /** Route template, e.g. `POST /verify/accounts/{id}/control`; defaults to method + path. */
  routeKey?: string;
  rawQueryString?: string;
  /**
   * Headers merged over the defaults (`service-version`, `content-type`). A header set to
   * `undefined` is removed, so a test can send a request without `service-version`.
   */
  headers?: Record<string, string | undefined>;
  /** A string is sent as is (malformed JSON included); anything else is JSON-encoded. */
  body?: unknown;
  pathParameters?: Record<string, string>;
  requestId?: string;
  /** Replaces the default claims entirely (client_id `partner-a`, sub, scope). */
  claims?: Claims;
}

let counter = 0;
/** A fresh API Gateway request id per event, so a test can tell requests apart. */
export const nextRequestId = (): string => `req-${process.pid}-${++counter}`;

export function httpEvent(options: EventOptions = {}): APIGatewayProxyEventV2WithJWTAuthorizer {
  const method = options.method ?? 'GET';
  const path = options.path ?? '/verify/accounts';
  const headers: Record<string, string> = {};
  const merged = { 'service-version': SERVICE_VERSION, 'content-type': 'application/json', ...options.headers };
  for (const [name, value] of Object.entries(merged)) if (value !== undefined) headers[name] = value;
  const claims = options.claims ?? {
    client_id: DEFAULT_CLIENT_ID,
    sub: DEFAULT_CLIENT_ID,
    scope: 'verify-service/read:verify-accounts verify-service/write:verify-accounts',
  };
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);

  return {
    version: '2.0',
    routeKey: options.routeKey ?? `${method} ${path}`,
    rawPath: path,
    rawQueryString: options.rawQueryString ?? '',
    headers,
    body,
    isBase64Encoded: false,
    pathParameters: options.pathParameters,
    requestContext: {
      accountId: '123456789012',
      apiId: 'api-id',
      domainName: 'api.example.test',
      domainPrefix: 'api',
      requestId: options.requestId ?? nextRequestId(),
      routeKey: options.routeKey ?? `${method} ${path}`,
      stage: '$default',
      time: '16/Jan/2026:15:30:00 +0000',
      timeEpoch: Date.UTC(2026, 0, 16, 15, 30),
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'unit-test' },
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: { claims: claims as Record<string, string>, scopes: claims.scope ? claims.scope.split(' ') : [] },
      },
    },
  };
}

export function lambdaContext(options: { remainingMs?: number } = {}): Context {
  const deadline = Date.now() + (options.remainingMs ?? 30_000);
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'verify-accounts-test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:verify-accounts-test',
    memoryLimitInMB: '256',
    awsRequestId: `lambda-${nextRequestId()}`,
    logGroupName: '/aws/lambda/verify-accounts-test',
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface HttpAnswer<B = any> {
  statusCode: number;
  headers: Record<string, string>;
  /** The parsed JSON body (undefined for an empty body). */
  body: B;
  /** The body exactly as sent, to search it for values that must never appear. */
  raw: string;
}

type Handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => Promise<unknown>;

export async function invoke<B = any>(
  handler: Handler,
  event: APIGatewayProxyEventV2WithJWTAuthorizer,
  context: Context = lambdaContext(),
): Promise<HttpAnswer<B>> {
  const result = (await asRoute(event.routeKey, () => handler(event, context))) as {
    statusCode: number;
    headers?: Record<string, string>;
    body?: string;
  };
  const raw = result.body ?? '';
  return {
    statusCode: result.statusCode,
    headers: result.headers ?? {},
    body: raw === '' ? undefined : JSON.parse(raw),
    raw,
  };
}
