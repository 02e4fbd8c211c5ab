import type { HttpResponse } from './apigw-response';

// What the local runtime serves beside the service's routes, outside API Gateway's model:
// developer conveniences (the OpenAPI document, the sandbox console, a token endpoint)
// that exist only in `npm start`. They are matched before the routes, on the exact path,
// and never pass the JWT authorizer: each decides for itself what it needs. Nothing here
// is deployed.

export interface LocalEndpoint {
  readonly method: 'GET' | 'POST';
  /** Exact path, no parameters (e.g. `/openapi.json`). */
  readonly path: string;
  /** Short name for the access log (as a route's id is). */
  readonly id: string;
  serve(request: LocalRequest): Promise<HttpResponse> | HttpResponse;
}

export interface LocalRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: URLSearchParams;
  readonly body: Buffer;
  /** The gateway's own base URL, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
}

export function findLocalEndpoint(
  endpoints: readonly LocalEndpoint[],
  method: string,
  path: string,
): LocalEndpoint | undefined {
  return endpoints.find((endpoint) => endpoint.method === method && endpoint.path === path);
}

/** Node gives only set-cookie as a list; none of the headers the endpoints read is one. */
export function header(request: LocalRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether the request names this loopback server as its host. The gateway listens on
 * loopback only, but a web page the developer opens could rebind its own host name to
 * 127.0.0.1 and so reach an endpoint as its own origin; such a request names that host.
 */
export function isForLoopback(request: LocalRequest): boolean {
  const host = header(request, 'host');
  const { port } = new URL(request.baseUrl);
  return ['127.0.0.1', 'localhost', '[::1]'].some((name) => host === (port ? `${name}:${port}` : name));
}
