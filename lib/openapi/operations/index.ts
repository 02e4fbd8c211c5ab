import { EVENT_LOG_OPERATIONS } from './event-log';
import { PERSON_OPERATIONS } from './persons';
import { SCREENING_OPERATIONS } from './screening';
import { SCREENING_REVIEW_OPERATIONS } from './screening-review';
import type { OperationSpec } from './types';
import { VERIFY_ACCOUNT_OPERATIONS } from './verify-accounts';
import { WEBHOOK_OPERATIONS } from './webhooks';

export type * from './types';

/**
 * What the OpenAPI document says about each route beyond what the route table and the
 * handler's own schemas already say: words, the success answer's schema, examples and the
 * error codes the route's own code raises. One file per area, named as the area's file in
 * lib/service, so a new route's row and its words sit under the same name; joined here in
 * the order of lib/service's AREAS. One entry per route id (a unit test holds them equal).
 * Everything else (parameters, request bodies, validation codes, the answers every route
 * shares) is derived in document.ts / contract.ts.
 */
export const OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  ...VERIFY_ACCOUNT_OPERATIONS,
  ...PERSON_OPERATIONS,
  ...SCREENING_OPERATIONS,
  ...SCREENING_REVIEW_OPERATIONS,
  ...EVENT_LOG_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
};
