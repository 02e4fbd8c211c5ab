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
