import { noticeHandler } from '#shared/http/notice-handler';
import { takeBankNotice } from '../bank-outcome';

/**
 * POST /bank/notices — the bank provider's signed webhook (docs/api.md#real-rails), on
 * real rails only: no token and no tenant; a notice the provider did not sign answers 401
 * `invalid_signature` and changes nothing.
 */
export const handler = noticeHandler(async ({ body, headers, logger }) => {
  await takeBankNotice(body, headers, logger);
  return { body: {} };
});
