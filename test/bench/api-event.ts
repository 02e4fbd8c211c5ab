import { randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '#lib/local/aws-account';
import { buildEvent, newRequestId } from '#lib/local/gateway/apigw-event';
import type { RouteDefinition } from '#lib/service/index';
import { scopePrefix } from '#shared/config';
import { SERVICE_VERSION } from '#shared/http/middlewares';

/** What a benchmark sends to a route: path parameters, query string, JSON body. */
export interface ApiRequest {
  /** Scopes the token holds beyond the route's own (a route that checks more itself: the event log's reads). */
  readonly scopes?: readonly string[];
  readonly pathParameters?: Record<string, string>;
  /** Raw query string, without `?`. */
  readonly query?: string;
  readonly body?: unknown;
  /** Headers beyond those every request carries (e.g. `Idempotency-Key`). */
  readonly headers?: Record<string, string>;
}

const API_HOST = 'a1b2c3d4e5.execute-api.us-east-1.amazonaws.com';
const ISSUER = 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_AbCdEfGhI';

/** A bearer token as long as a real RS256 access token (the handler never reads it: API Gateway checked it). */
const base64url = (bytes: number) => randomBytes(bytes).toString('base64url');
const TOKEN = `eyJraWQiOi${base64url(60)}.${base64url(420)}.${base64url(256)}`;

/**
 * The payload-format-2.0 event API Gateway hands a route's Lambda, built by the local
 * gateway's own builder from a partner SDK's request: the headers a real client sends
 * (the bearer token included), the gateway's `x-forwarded-*` and trace headers, the JWT
 * authorizer's claims of a Cognito client-credentials token.
 */
export function apiEvent(
  route: RouteDefinition,
  request: ApiRequest,
  clientId: string,
): APIGatewayProxyEventV2WithJWTAuthorizer {
  const pathParameters = request.pathParameters ?? {};
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParameters[name] ?? ''));
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.body), 'utf8');
  const rawHeaders = [
    'Host',
    API_HOST,
    'User-Agent',
    'partner-sdk/2.4.1 node/20.11.1',
    'Accept',
    'application/json',
    'Accept-Encoding',
    'gzip, deflate, br',
    'Authorization',
    `Bearer ${TOKEN}`,
    'Service-Version',
    SERVICE_VERSION,
    'X-Forwarded-For',
    '198.51.100.23',
    ...(body.length > 0 ? ['Content-Type', 'application/json', 'Content-Length', String(body.length)] : []),
    ...Object.entries(request.headers ?? {}).flat(),
  ];
  const issuedAt = Math.floor(Date.now() / 1000) - 600;
  return buildEvent(
    {
      method: route.method,
      target: request.query ? `${path}?${request.query}` : path,
      rawHeaders,
      body,
      sourceIp: '198.51.100.23',
      httpVersion: '1.1',
      localPort: 443,
    },
    {
      route,
      pathParameters,
      claims: {
        sub: clientId,
        client_id: clientId,
        token_use: 'access',
        // Prefixed as the handlers read them (JWT_SCOPE_PREFIX): scopes a handler checks itself (the event log's) must match.
        scope: [...route.scopes, ...(request.scopes ?? [])].map((scope) => `${scopePrefix()}${scope}`).join(' '),
        auth_time: issuedAt,
        iss: ISSUER,
        exp: issuedAt + 3600,
        iat: issuedAt,
        version: 2,
        jti: randomUUID(),
      },
      requestId: newRequestId(),
      receivedAt: new Date(),
    },
  );
}

/** A Lambda context as the runtime passes one per invocation. */
export function lambdaContext(route: RouteDefinition): Context {
  const functionName = `verify-service-${route.id}`;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: '2026/01/16/[$LATEST]0123456789abcdef0123456789abcdef',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
