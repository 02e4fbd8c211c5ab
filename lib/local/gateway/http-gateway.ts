import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isProviderSigned, type RouteDefinition } from '#lib/service/index';
import { type LambdaInvoker, routeFunction } from '../lambda-invoker';
import { LOCAL_HOST } from '../local-address';
import type { RuntimeLog } from '../log';
import { buildEvent, newRequestId, splitTarget } from './apigw-event';
import { gatewayError, type HttpResponse, toHttpResponse } from './apigw-response';
import {
  headerSectionBytes,
  INTEGRATION_TIMEOUT_MS,
  MAX_BODY_BYTES,
  MAX_HEADER_BYTES,
  NODE_MAX_HEADER_SIZE,
  readBody,
} from './http-api-quotas';
import { challenge, type JwtAuthorizer } from './jwt-authorizer';
import { findLocalEndpoint, type LocalEndpoint } from './local-endpoints';
import { RouteTable } from './route-table';

// Plays an API Gateway HTTP API with one JWT authorizer in front of every route (but the
// bank provider's notice route, which has none, as in AWS), in the order AWS applies its checks: the quotas on request line and headers (431) and payload
// (413), route selection (404 before any auth), authorizer (401, then 403 on scopes),
// Lambda integration (500 when it fails, 503 when it outlasts the integration timeout).
// The quotas are in ./http-api-quotas.ts; the authorizer and its challenge in ./jwt-authorizer.ts.

// The quotas, as tests and callers read them beside the gateway that holds requests to them.
export { INTEGRATION_TIMEOUT_MS, MAX_BODY_BYTES, MAX_HEADER_BYTES } from './http-api-quotas';

export interface HttpGatewayOptions {
  /** Every route is served, local-only ones included: this gateway is local by definition. */
  readonly routes: readonly RouteDefinition[];
  /** Served before the routes, without the authorizer (lib/local/gateway/local-endpoints.ts). */
  readonly endpoints?: readonly LocalEndpoint[];
  readonly authorizer: JwtAuthorizer;
  readonly invoker: Pick<LambdaInvoker, 'invoke'>;
  /** 0: a free port. */
  readonly port: number;
  readonly log: RuntimeLog;
  /** HTTP APIs refuse payloads over 10 MB. */
  readonly maxBodyBytes?: number;
  /** HTTP APIs refuse a request line and headers over 10,240 bytes in all. */
  readonly maxHeaderBytes?: number;
  /** HTTP APIs give up on an integration after 30 s; tests pass a short one. */
  readonly integrationTimeoutMs?: number;
}

export interface HttpGateway {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

interface Outcome {
  readonly response: HttpResponse;
  readonly routeId?: string;
  /** The token's `client_id` (the tenant, or its alias), once the authorizer accepted it. */
  readonly clientId?: string;
  /** Why the gateway refused, for the access log. */
  readonly note?: string;
  /** The path to log when it is known to hold no caller data (a local endpoint's own). */
  readonly loggedPath?: string;
}

export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const routes = new RouteTable(options.routes);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxHeaderBytes = options.maxHeaderBytes ?? MAX_HEADER_BYTES;
  const integrationTimeoutMs = options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS;

  const server = createServer({ maxHeaderSize: NODE_MAX_HEADER_SIZE }, (req, res) => void serve(req, res));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await respond(req, requestId);
    } catch (error) {
      options.log('error', 'local gateway failed', { requestId, error });
      outcome = { response: gatewayError('internalError') };
    }
    try {
      send(res, outcome.response, requestId);
    } catch (error) {
      // e.g. a header value with a line break: Node refuses it, AWS would answer a 500.
      options.log('error', 'invalid response from handler', { requestId, error });
      outcome = { ...outcome, response: gatewayError('internalError') };
      send(res, outcome.response, requestId);
    }
    const { response, routeId, clientId, note, loggedPath } = outcome;
    const path = loggedPath ?? loggablePath(splitTarget(req.url ?? '/').rawPath);
    options.log(
      'info',
      `${req.method} ${path} -> ${response.statusCode} ${Math.round(performance.now() - started)} ms`,
      {
        ...(clientId && { tenant: clientId }),
        ...(routeId && { route: routeId }),
        ...(note && { note }),
        requestId,
      },
    );
  }

  async function respond(req: IncomingMessage, requestId: string): Promise<Outcome> {
    const receivedAt = new Date();
    if (headerSectionBytes(req) > maxHeaderBytes) {
      req.resume();
      return { response: gatewayError('headersTooLarge', { connection: 'close' }), note: 'headers over the quota' };
    }
    const body = await readBody(req, maxBodyBytes);
    if (!body) return { response: gatewayError('payloadTooLarge', { connection: 'close' }) };

    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    const { rawPath, rawQueryString } = splitTarget(target);
    const endpoint = findLocalEndpoint(options.endpoints ?? [], method, rawPath);
    if (endpoint) {
      const response = await endpoint.serve({
        headers: req.headers,
        query: new URLSearchParams(rawQueryString),
        body,
        baseUrl: `http://${LOCAL_HOST}:${(server.address() as AddressInfo).port}`,
      });
      return { response, routeId: endpoint.id, loggedPath: endpoint.path };
    }
    const match = routes.match(method, rawPath);
    if (!match) return { response: gatewayError('notFound') };
    const { route, pathParameters } = match;

    // The provider's notice route has no authorizer in AWS either: its handler checks the signature.
    const auth = isProviderSigned(route)
      ? ({ ok: true, claims: undefined } as const)
      : await options.authorizer(req.headers.authorization, route.scopes);
    if (!auth.ok) {
      const kind = auth.statusCode === 401 ? 'unauthorized' : 'forbidden';
      const wwwAuthenticate = challenge(auth, route.scopes, Boolean(req.headers.authorization));
      return {
        response: gatewayError(kind, { 'www-authenticate': wwwAuthenticate }),
        routeId: route.id,
        note: auth.reason,
      };
    }

    const event = buildEvent(
      {
        method,
        target,
        rawHeaders: req.rawHeaders,
        body,
        sourceIp: (req.socket.remoteAddress ?? LOCAL_HOST).replace(/^::ffff:/, ''),
        httpVersion: req.httpVersion,
        localPort: req.socket.localPort ?? 0,
      },
      { route, pathParameters, claims: auth.claims, requestId, receivedAt },
    );
    const claimed = auth.claims?.client_id ?? auth.claims?.sub;
    const served = { routeId: route.id, ...(typeof claimed === 'string' && { clientId: claimed }) };
    try {
      const result = await withinIntegrationTimeout(options.invoker.invoke(routeFunction(route), event));
      if (result === TIMED_OUT) {
        // As in AWS, the function runs on to its own timeout; the caller no longer waits.
        return { response: gatewayError('serviceUnavailable'), ...served, note: 'integration timed out' };
      }
      return { response: toHttpResponse(result), ...served };
    } catch (error) {
      // API Gateway answers its own generic 500 and the cause only reaches the logs.
      options.log('error', `${route.id} failed`, { requestId, error });
      return { response: gatewayError('internalError'), ...served, note: 'handler failed' };
    }
  }

  async function withinIntegrationTimeout(invocation: Promise<unknown>): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), integrationTimeoutMs);
    });
    try {
      return await Promise.race([invocation, timeout]);
    } finally {
      clearTimeout(timer);
      // A late failure of an invocation nobody waits for any more must not go unhandled.
      invocation.catch(() => undefined);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOCAL_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${LOCAL_HOST}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A request still running in a handler gets a moment to finish, not forever.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }),
  };
}

const TIMED_OUT = Symbol('integration timed out');

/**
 * The path as the access log shows it: words kept, every other segment (an id, or
 * whatever a caller put there: an SSN, an account number) replaced by `{…}`. The query
 * string is never logged, for the same reason.
 */
export function loggablePath(rawPath: string): string {
  return rawPath
    .split('/')
    .map((segment) => (segment === '' || /^[A-Za-z][A-Za-z_-]*$/.test(segment) ? segment : '{…}'))
    .join('/');
}

function send(res: ServerResponse, response: HttpResponse, requestId: string): void {
  res.writeHead(response.statusCode, {
    ...response.headers,
    'content-length': String(response.body.length),
    'apigw-requestid': requestId,
  });
  res.end(response.body);
}
