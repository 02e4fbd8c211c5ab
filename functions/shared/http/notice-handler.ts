import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { Context } from 'aws-lambda';
import { untilAnswered } from '#shared/abandoned-work';
import { invocation } from '#shared/invocation';
import type { Logger } from '#shared/logger';
import { ANSWER_MARGIN_MS, withinTime } from '#shared/time-budget';
import { bodyLimit } from './body-limit';
import { dataKeys, errorMapper, logCompleted, requestState } from './middlewares';
import { jsonResult } from './respond';
import type { HttpEvent, HttpMiddleware, HttpRequestOf, HttpResult, Reply, RequestState, StackEvent } from './types';

/** What a notice handler gets: the request as the provider signed it, and who is answering it. */
export interface NoticeRequest {
  /** The body exactly as sent (decoded when API Gateway base64-encoded it): what the signature covers. */
  readonly body: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly requestId: string;
  readonly logger: Logger;
}

type NoticeEvent = StackEvent & { notice?: NoticeRequest };

/**
 * A route the bank provider calls (`auth: 'provider-signature'`), built on the shared
 * stack's tenant-less part: header normalisation, request id and logger, error mapping
 * (the contract's error body with `request_id`), data keys and the body limit, then the
 * handler with the raw body. No Service-Version, tenant, rate limit, JSON parsing or
 * idempotency: the provider holds no token and sends its own format, which only its
 * adapter reads (after checking the signature), and its retries are made safe by the use
 * case, not by an `Idempotency-Key`.
 *
 * @example
 * // functions/verify-accounts/handlers/bank-notice.ts: POST /bank/notices
 * export const handler = noticeHandler(async ({ body, headers, logger }) => {
 *   await takeBankNotice(body, headers, logger);
 *   return { body: {} };
 * });
 */
export function noticeHandler(
  fn: (request: NoticeRequest) => Promise<Reply>,
): (event: HttpEvent, context: Context) => Promise<HttpResult> {
  const stack = middy<StackEvent, HttpResult, Error, Context, RequestState>({
    timeoutEarlyInMillis: ANSWER_MARGIN_MS,
    requestEnd: (request) => logCompleted(request as HttpRequestOf),
  })
    .use(httpHeaderNormalizer())
    .use(requestState())
    .use(errorMapper())
    .use(dataKeys())
    .use(bodyLimit())
    .use(rawRequest())
    .handler(async (event, _context, { signal }) => {
      const request = (event as NoticeEvent).notice as NoticeRequest;
      // The provider sends a notice answered 503 again: this run then starts no more writes (#shared/abandoned-work).
      const reply = await untilAnswered(signal, () => fn(request));
      return jsonResult(reply.statusCode ?? 200, reply.body, request.requestId, reply.headers);
    });
  // Its table calls end in its time, as every HTTP stack's (#shared/time-budget).
  return invocation<HttpEvent, HttpResult>(
    (event, context) => withinTime(context, ANSWER_MARGIN_MS, () => stack(event, context as Context)),
    { loadsDataKeys: false },
  );
}

/** Last before the handler: the raw body and the headers, with the request's id and logger. */
const rawRequest = (): HttpMiddleware => ({
  before: function handOverRawRequest({ event, internal }) {
    const body = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    (event as NoticeEvent).notice = {
      body: body ?? '',
      headers: { ...event.headers },
      requestId: internal.requestId,
      logger: internal.logger,
    };
  },
});
