import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Logger } from '#shared/logger';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

/** What the middlewares learn about a request, shared along the stack. */
export interface RequestState {
  requestId: string;
  /** API Gateway route key, e.g. `POST /verify/accounts`. */
  route: string;
  logger: Logger;
  tenant?: string;
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

export type HttpContext = Context & { http: RequestState };

/** What a handler gives back: the body is serialized by the stack. */
export interface Reply {
  statusCode?: number;
  body?: unknown;
  headers?: Record<string, string>;
}
