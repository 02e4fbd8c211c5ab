import { noticeHandler } from '#shared/http/notice-handler';
import { takeIdentityNotice } from '../take-identity-notice';

/**
 * POST /identity/notices — the identity vendor's signed webhook (docs/deploy.md#identity-vendor-plaid),
 * with a real vendor only: no token and no tenant; a notice the vendor did not sign answers
 * 401 `invalid_signature` and queues nothing.
 */
export const handler = noticeHandler(async ({ body, headers, logger }) => {
  await takeIdentityNotice(body, headers, logger);
  return { body: {} };
});
