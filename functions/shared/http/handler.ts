import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { idempotency } from './idempotency';
import { errorMapper, input, requestState, serviceVersion, tenant } from './middlewares';
import { jsonResult } from './respond';
import type { HttpContext, HttpEvent, HttpResult, Reply } from './types';

type Out<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

export interface HttpRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  tenant: string;
  requestId: string;
}

/**
 * Every HTTP handler is built here, on the same middleware stack: header normalisation,
 * request id and logger, error mapping, Service-Version, tenant, input parsing and
 * validation, idempotency. The handler function gets validated, typed input and returns
 * a body; one access-log line is written per request.
 */
export function httpHandler<
  BS extends z.core.$ZodType | undefined = undefined,
  QS extends z.core.$ZodType | undefined = undefined,
  PS extends z.core.$ZodType | undefined = undefined,
>(
  schemas: { body?: BS; query?: QS; params?: PS },
  fn: (request: HttpRequest<Out<BS>, Out<QS>, Out<PS>>) => Promise<Reply>,
) {
  const stack = middy<HttpEvent, HttpResult, Error, HttpContext>()
    .use(httpHeaderNormalizer())
    .use(requestState())
    .use(errorMapper())
    .use(serviceVersion())
    .use(tenant())
    .use(input(schemas))
    .use(idempotency())
    .handler(async (_event, context) => {
      const { http } = context;
      const reply = await fn({
        body: http.body as Out<BS>,
        query: http.query as Out<QS>,
        params: http.params as Out<PS>,
        tenant: http.tenant as string,
        requestId: http.requestId,
      });
      return jsonResult(reply.statusCode ?? 200, reply.body, http.requestId, reply.headers);
    });

  return async (event: HttpEvent, context: Context): Promise<HttpResult> => {
    const started = performance.now();
    const ctx = context as HttpContext;
    const result = await stack(event, ctx);
    ctx.http?.logger.info('request completed', {
      status: result.statusCode,
      latency_ms: Math.round(performance.now() - started),
      replayed: result.headers?.['idempotent-replayed'] === 'true' || undefined,
    });
    return result;
  };
}
